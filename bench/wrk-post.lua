-- wrk script for the relay bench: every request is the same POST with a JSON body and a key.
--   WRK_BODY='{"model":"m","messages":[...]}' WRK_KEY=sk-... [WRK_KEY_HEADER=x-api-key] wrk -s bench/wrk-post.lua http://host:port/v1/chat/completions
-- The key goes bare in WRK_KEY_HEADER when set (x-api-key, x-goog-api-key), else as Authorization: Bearer.
wrk.method = "POST"
wrk.body = os.getenv("WRK_BODY") or "{}"
wrk.headers["Content-Type"] = "application/json"
local key = os.getenv("WRK_KEY")
local header = os.getenv("WRK_KEY_HEADER")
if key and key ~= "" then
  if header and header ~= "" then
    wrk.headers[header] = key
  else
    wrk.headers["Authorization"] = "Bearer " .. key
  end
end

-- No response() callback: it would make wrk buffer every body and cost the load generator CPU.

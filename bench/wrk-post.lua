-- wrk script for the relay bench: every request is the same POST with a JSON body and a bearer key.
--   WRK_BODY='{"model":"m","messages":[...]}' WRK_KEY=sk-... wrk -s bench/wrk-post.lua http://host:port/v1/chat/completions
wrk.method = "POST"
wrk.body = os.getenv("WRK_BODY") or "{}"
wrk.headers["Content-Type"] = "application/json"
local key = os.getenv("WRK_KEY")
if key and key ~= "" then
  wrk.headers["Authorization"] = "Bearer " .. key
end

-- No response() callback: it would make wrk buffer every body and cost the load generator CPU.

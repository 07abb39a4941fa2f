/**
 * The relay's (/v1, /v1beta) error messages in Chinese, keyed by their English text: sent only when the
 * RelayErrorLanguage option is zh. Field and parameter names stay as the API spells them.
 * tests/house/server-messages.test.ts lists the missing.
 */
export const ZH_RELAY_MESSAGES: Readonly<Record<string, string>> = {
  // Who may call
  "no API key provided: send Authorization: Bearer sk-...": "未提供 API 密钥：请发送 Authorization: Bearer sk-...",
  "invalid API key": "无效的 API 密钥",
  "this API key is disabled": "此 API 密钥已被禁用",
  "this API key has expired": "此 API 密钥已过期",
  "this API key's quota is exhausted": "此 API 密钥的额度已用尽",
  "this API key is not enabled": "此 API 密钥未启用",
  "your IP address is not allowed to use this API key": "你的 IP 地址不允许使用此 API 密钥",
  "the user has been banned": "该用户已被封禁",
  "no permission to use group {0}": "无权使用分组 {0}",
  "ordinary users cannot choose a channel": "普通用户不能指定渠道",
  "invalid channel id": "无效的渠道 ID",
  "this API key has no access to any model": "此 API 密钥无权使用任何模型",
  "this API key has no access to model {0}": "此 API 密钥无权使用模型 {0}",
  "{0} quota is not enough for this request": "{0} 额度不足，无法完成此请求",
  "user quota is not enough for this request": "用户额度不足，无法完成此请求",
  "API key quota is not enough for this request": "API 密钥额度不足，无法完成此请求",
  "the request contains sensitive words and was refused": "请求包含敏感词，已被拒绝",
  // Models and channels
  "models/{0} is not found": "未找到模型 models/{0}",
  "the model '{0}' does not exist": "模型 '{0}' 不存在",
  "model must be a string": "model 必须是字符串",
  "model is required": "model 为必填项",
  "channel {0} does not exist or is disabled": "渠道 {0} 不存在或已被禁用",
  "the upstream refused this channel's credentials (HTTP {0}): {1}": "上游拒绝了此渠道的凭据（HTTP {0}）：{1}",
  "no available channel for model {0} in group {1}": "分组 {1} 下没有模型 {0} 的可用渠道",
  "the upstream's reply could not be read": "无法读取上游的回复",
  "the upstream refused the call: {0}": "上游拒绝了此次调用：{0}",
  "the upstream's stream held no reply": "上游的流中没有回复",
  "channel type {0} ({1}) has no provider in this gateway; change the channel's type or delete it":
    "渠道类型 {0}（{1}）在本网关中没有对应的实现；请修改渠道类型或删除该渠道",
  "{0} is not supported on {1} channels": "{1} 渠道不支持 {0}",
  "n > 1 is not supported on {0} channels{1}": "{0} 渠道不支持 n > 1{1}",
  "channel {0} is not available": "渠道 {0} 不可用",
  "channel {0} does not serve {1} tasks": "渠道 {0} 不处理 {1} 任务",
  "Suno channels serve only the /suno routes": "Suno 渠道只服务 /suno 路由",
  "Midjourney channels serve only the /mj routes": "Midjourney 渠道只服务 /mj 路由",
  "the Coze channel names no bot id (the channel's bot id field)": "该 Coze 渠道未填写 Bot ID（渠道的 Bot ID 字段）",
  "the AIProxy Library channel names no knowledge base id (the channel's knowledge base ID field)":
    "该 AIProxy Library 渠道未填写知识库 ID（渠道的知识库 ID 字段）",
  "the knowledge base refused the call: {0}": "知识库拒绝了此次调用：{0}",
  // Stored responses
  "No response with id '{0}' is stored upstream through this gateway: only responses created on an OpenAI channel are, for the key's user, while the gateway runs; a response translated to chat completions is never stored":
    "没有通过本网关在上游保存的 ID 为 '{0}' 的响应：只有在网关运行期间、由该密钥的用户在 OpenAI 渠道上创建的响应才会保存；转换为 chat completions 的响应从不保存",
  "could not reach the channel that stored the response": "无法连接到保存该响应的渠道",
  "the channel that stored response '{0}' is no longer available": "保存响应 '{0}' 的渠道已不可用",
  // Request bodies
  "request body must be multipart/form-data": "请求体必须是 multipart/form-data",
  "the body must be a JSON object": "请求体必须是 JSON 对象",
  "the request body must be a JSON object": "请求体必须是 JSON 对象",
  "thinking_budget must be a number of tokens (0 or more)": "thinking_budget 必须是 token 数（0 或以上）",
  "reasoning_effort must be one of {0}": "reasoning_effort 必须是以下之一：{0}",
  "message content must be a string or an array of parts": "消息的 content 必须是字符串或内容片段数组",
  "image_url must be an http(s) URL or a base64 data: URL": "image_url 必须是 http(s) 地址或 base64 的 data: URL",
  "content parts of type {0} are not supported on {1} channels": "{1} 渠道不支持类型为 {0} 的内容片段",
  "{0} take text only": "{0} 只接受文本",
  "messages[].tool_calls[] need an id and a function name": "messages[].tool_calls[] 需要 id 和函数名",
  "messages[].tool_calls[].function.arguments of {0} is not valid JSON":
    "{0} 的 messages[].tool_calls[].function.arguments 不是有效的 JSON",
  "messages[].tool_calls[].function.arguments of {0} must be a JSON object":
    "{0} 的 messages[].tool_calls[].function.arguments 必须是 JSON 对象",
  "messages must be an array": "messages 必须是数组",
  "messages[].tool_call_id {0} answers no earlier tool call": "messages[].tool_call_id {0} 没有对应的先前工具调用",
  "messages with role {0} are not supported on {1} channels": "{1} 渠道不支持角色为 {0} 的消息",
  "response_format.json_schema.schema must be a JSON Schema object":
    "response_format.json_schema.schema 必须是 JSON Schema 对象",
  "response_format of type {0} is not supported": "不支持类型为 {0} 的 response_format",
  "tools must be an array": "tools 必须是数组",
  "tools of type {0} are not supported; only function tools": "不支持类型为 {0} 的 tools；只支持 function 工具",
  "tools[].function.name is required": "tools[].function.name 为必填项",
  "ids must be a list of up to {0} task ids": "ids 必须是最多 {0} 个任务 ID 的列表",
  "the image's upstream answered {0} {1}": "图片的上游返回了 {0} {1}",
  "the image at {0} could not be downloaded: {1}": "无法下载 {0} 处的图片：{1}",
  "images of type {0} are not supported on {1} channels": "{1} 渠道不支持类型为 {0} 的图片",
  "image URLs are not supported on {0} channels; send the image as a base64 data: URL":
    "{0} 渠道不支持图片地址；请以 base64 的 data: URL 发送图片",
  "max_tokens/max_completion_tokens ({0}) must exceed the thinking budget ({1}) on {2} channels":
    "在 {2} 渠道上，max_tokens/max_completion_tokens（{0}）必须大于思考预算（{1}）",
  "tool calls and tool answers belong in their own messages": "工具调用和工具结果必须放在各自的消息中",
  "{0} channels take text messages only (no images, tools or tool answers)":
    "{0} 渠道只接受文本消息（不支持图片、工具或工具结果）",
  "tools are not supported on {0} channels (the app has its own)": "{0} 渠道不支持 tools（应用自带工具）",
  "the last message must be a user message with text on {0} channels":
    "在 {0} 渠道上，最后一条消息必须是带文本的用户消息",
  "input must be a string or an array of strings on Cohere channels (token arrays are not supported)":
    "在 Cohere 渠道上，input 必须是字符串或字符串数组（不支持 token 数组）",
  "input_type must be one of {0} on Cohere channels": "在 Cohere 渠道上，input_type 必须是以下之一：{0}",
  "documents must be a non-empty array": "documents 必须是非空数组",
  "documents[] must be strings or {text} objects": "documents[] 必须是字符串或 {text} 对象",
  "query must be a non-empty string": "query 必须是非空字符串",
  "return_documents is not supported on Cohere channels": "Cohere 渠道不支持 return_documents",
  // Gemini dialect
  "generationConfig.responseModalities {0} is not supported: only TEXT is":
    "不支持 generationConfig.responseModalities {0}：只支持 TEXT",
  "generationConfig.responseMimeType {0} is not supported": "不支持 generationConfig.responseMimeType {0}",
  "contents must be a non-empty array": "contents 必须是非空数组",
  "cachedContent is not supported: send the content itself": "不支持 cachedContent：请直接发送内容",
  "requests must be a non-empty array": "requests 必须是非空数组",
  "requests[{0}].model must be models/{1}, as in the path": "requests[{0}].model 必须与路径中一致，为 models/{1}",
  "{0}.parts must be a non-empty array": "{0}.parts 必须是非空数组",
  "{0}: only text parts can be embedded": "{0}：只有文本片段可以嵌入",
  "outputDimensionality must be the same for every request of a batch":
    "同一批次中每个请求的 outputDimensionality 必须相同",
  "tools[].functionDeclarations[].name is required": "tools[].functionDeclarations[].name 为必填项",
  "toolConfig.functionCallingConfig.mode {0} is not supported": "不支持 toolConfig.functionCallingConfig.mode {0}",
  "contents[{0}].parts must be an array": "contents[{0}].parts 必须是数组",
  'contents[{0}].role must be "user" or "model", not {1}': 'contents[{0}].role 必须是 "user" 或 "model"，而不是 {1}',
  "inlineData with mimeType {0} is not supported: only images are": "不支持 mimeType 为 {0} 的 inlineData：只支持图片",
  "fileData is supported only for images at a public http(s) URL (Google's Files API is not)":
    "fileData 只支持公开 http(s) 地址上的图片（不支持 Google 的 Files API）",
  "{0} parts of kind {1} are not supported": "不支持 {0} 中类型为 {1} 的片段",
  "countTokens needs contents or generateContentRequest.contents":
    "countTokens 需要 contents 或 generateContentRequest.contents",
  "the path must name a model: models/{model}:{action}": "路径必须指明模型：models/{model}:{action}",
  "the method {0} is not supported": "不支持方法 {0}",
  // Anthropic dialect
  '{0}: only {type: "json_schema", schema} is supported': '{0}：只支持 {type: "json_schema", schema}',
  "image source type {0} is not supported": "不支持图片来源类型 {0}",
  "content blocks of type {0} are not supported": "不支持类型为 {0} 的内容块",
  "system must be a string or an array of text blocks": "system 必须是字符串或文本块数组",
  "system: only text blocks are supported": "system：只支持文本块",
  "assistant content blocks of type {0} are not supported": "不支持类型为 {0} 的 assistant 内容块",
  "tool_choice of type {0} is not supported": "不支持类型为 {0} 的 tool_choice",
  "tools of type {0} (server tools) are not supported": "不支持类型为 {0} 的 tools（服务端工具）",
  "messages: an array of messages is required": "messages：需要消息数组",
  "max_tokens: a number is required": "max_tokens：需要一个数字",
  "messages: role {0} is not supported": "messages：不支持角色 {0}",
  // Responses dialect
  "{0}.file_id refers to a file stored by OpenAI, which a translated call cannot read; send the content inline (image_url or file_data)":
    "{0}.file_id 指向 OpenAI 保存的文件，转换后的调用无法读取；请直接内联发送内容（image_url 或 file_data）",
  "{0} input_file needs file_data: a file_url cannot be translated to chat completions":
    "{0} 的 input_file 需要 file_data：file_url 无法转换为 chat completions",
  "{0} has a content part of type {1}, which is not supported": "{0} 含有不支持的 {1} 类型内容片段",
  "{0} is an item_reference: a translated call has no stored items to refer to":
    "{0} 是 item_reference：转换后的调用没有可引用的已保存条目",
  "{0} has type {1}, which cannot be translated to chat completions": "{0} 的类型为 {1}，无法转换为 chat completions",
  "{0}.role {1} is not a message role": "{0}.role {1} 不是消息角色",
  "input must be a string or an array of input items": "input 必须是字符串或输入条目数组",
  "{0} is not supported on this channel: its upstream serves chat completions, so no earlier response or stored state exists; send the whole conversation in input":
    "此渠道不支持 {0}：其上游提供 chat completions，没有先前的响应或保存的状态；请在 input 中发送完整对话",
  "background is not supported on this channel: its upstream serves chat completions":
    "此渠道不支持 background：其上游提供 chat completions",
  "text.format.type {0} is not supported": "不支持 text.format.type {0}",
  "input is required": "input 为必填项",
  "tool_choice names the tool {0}, which is not among the tools": "tool_choice 指定的工具 {0} 不在 tools 中",
  "tool_choice {0} needs a tool that only OpenAI's Responses API runs; it cannot be translated to chat completions":
    "tool_choice {0} 需要只有 OpenAI Responses API 才能运行的工具，无法转换为 chat completions",
  // Error events the gateway writes into a streamed reply (the upstream's own error text is passed on as it came)
  "upstream stream error": "上游流出错",
  "the upstream stream failed": "上游流出错",
  "the upstream reported an error": "上游报告了错误",
  "the upstream stream ended before the reply was complete": "上游流在回复完成前中断了",
  "the upstream stream ended before the response was complete": "上游流在响应完成前中断了",
  "the Coze chat failed": "Coze 对话失败",
  // Tasks (Midjourney, Suno)
  "prompt or gpt_description_prompt is required": "需要 prompt 或 gpt_description_prompt",
  "prompt is required": "prompt 为必填项",
  "unknown action: {0}": "未知的操作：{0}",
  "task {0} not found": "任务 {0} 不存在",
  "task {0} has not succeeded (status {1})": "任务 {0} 尚未成功（状态 {1}）",
  "{0} is required": "{0} 为必填项",
  "action must be UPSCALE, VARIATION or REROLL": "action 必须是 UPSCALE、VARIATION 或 REROLL",
  "index must be 1 to 4": "index 必须是 1 到 4",
  "base64Array must hold 2 to 5 images": "base64Array 必须包含 2 到 5 张图片",
};

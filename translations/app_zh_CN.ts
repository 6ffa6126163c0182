<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
    <context>
        <name>Assistant</name>
        <message>
            <source>Assistant</source>
            <translation>通用助手</translation>
        </message>
        <message>
            <source>Coder</source>
            <translation>编程助手</translation>
        </message>
        <message>
            <source>Writer</source>
            <translation>写作助手</translation>
        </message>
        <message>
            <source>Translator</source>
            <translation>翻译助手</translation>
        </message>
    </context>
    <context>
        <name>AssistantLibrary</name>
        <message>
            <source>This is not an assistant file: {error}</source>
            <translation>这不是助手文件：{error}</translation>
        </message>
        <message>
            <source>{name} (copy)</source>
            <translation>{name}（副本）</translation>
        </message>
    </context>
    <context>
        <name>BackupReport</name>
        <message>
            <source>no settings</source>
            <translation>不含设置</translation>
        </message>
        <message>
            <source>settings (with API keys)</source>
            <translation>含设置（包括 API 密钥）</translation>
        </message>
        <message>
            <source>settings (without API keys)</source>
            <translation>含设置（不含 API 密钥）</translation>
        </message>
        <message>
            <source>Backup of {date} (desktop-agent {version}): {chats} chats, {templates} templates, {settings}.</source>
            <translation>{date} 的备份（desktop-agent {version}）：{chats} 个对话，{templates} 个模板，{settings}。</translation>
        </message>
        <message>
            <source>Restored: {added} chats added, {replaced} replaced by their newer archived copy (the older one is in the trash), {kept} kept (yours is as new or newer), {templates} templates added, settings restored.</source>
            <translation>已恢复：新增 {added} 个对话，{replaced} 个换成了备份中较新的版本（旧版本在回收站中），{kept} 个保持不变（你的版本一样新或更新），新增 {templates} 个模板，设置已恢复。</translation>
        </message>
        <message>
            <source>Restored: {added} chats added, {replaced} replaced by their newer archived copy (the older one is in the trash), {kept} kept (yours is as new or newer), {templates} templates added.</source>
            <translation>已恢复：新增 {added} 个对话，{replaced} 个换成了备份中较新的版本（旧版本在回收站中），{kept} 个保持不变（你的版本一样新或更新），新增 {templates} 个模板。</translation>
        </message>
        <message>
            <source>not restored: {item}</source>
            <translation>未恢复：{item}</translation>
        </message>
        <message>
            <source>Wrote {path}:</source>
            <translation>已写入 {path}：</translation>
        </message>
        <message>
            <source>it is not a ZIP archive</source>
            <translation>它不是 ZIP 压缩包</translation>
        </message>
        <message>
            <source>it is a ZIP archive but not a desktop-agent backup</source>
            <translation>它是 ZIP 压缩包，但不是 desktop-agent 备份</translation>
        </message>
        <message>
            <source>its manifest is not JSON</source>
            <translation>其清单文件不是 JSON</translation>
        </message>
        <message>
            <source>it is not a desktop-agent backup</source>
            <translation>它不是 desktop-agent 备份</translation>
        </message>
        <message>
            <source>it was made by a newer desktop-agent (backup format {version})</source>
            <translation>它由更新版本的 desktop-agent 生成（备份格式 {version}）</translation>
        </message>
        <message>
            <source>it was saved by a newer desktop-agent</source>
            <translation>它由更新版本的 desktop-agent 保存</translation>
        </message>
    </context>
    <context>
        <name>ChatService</name>
        <message>
            <source>Something went wrong: {detail}</source>
            <translation>出了点问题：{detail}</translation>
        </message>
        <message>
            <source>The server does not accept the parameter “{parameter}” ({reason}). Retry sends the message without it; to stop sending it, clear it in Parameters (Settings, or the chat header).</source>
            <translation>服务器不接受参数“{parameter}”（{reason}）。点击“重试”会不带该参数重新发送消息；如不想再发送它，请在“参数”中清除（在设置中，或在对话顶栏）。</translation>
        </message>
    </context>
    <context>
        <name>ContextConfigError</name>
        <message>
            <source>duplicate module_name {name} (already used by context_template[{index}])</source>
            <translation>module_name {name} 重复（已被 context_template[{index}] 使用）</translation>
        </message>
        <message>
            <source>unknown importance function {name}; known importance functions: {known}</source>
            <translation>未知的重要性函数 {name}；已知的重要性函数：{known}</translation>
        </message>
        <message>
            <source>unknown variable {name}; known variables: {known}</source>
            <translation>未知的变量 {name}；已知的变量：{known}</translation>
        </message>
        <message>
            <source>(none)</source>
            <translation>（无）</translation>
        </message>
        <message>
            <source>invalid JSON at line {line}, column {column}: {error}</source>
            <translation>第 {line} 行第 {column} 列的 JSON 无效：{error}</translation>
        </message>
        <message>
            <source>the JSON nests too deeply to be read (thousands of levels)</source>
            <translation>JSON 嵌套太深，无法读取（达数千层）</translation>
        </message>
        <message>
            <source>file not found</source>
            <translation>找不到文件</translation>
        </message>
        <message>
            <source>cannot be read ({error})</source>
            <translation>无法读取（{error}）</translation>
        </message>
        <message>
            <source>Cannot read the context config {source}: {error}</source>
            <translation>无法读取上下文配置 {source}：{error}</translation>
        </message>
        <message numerus="yes">
            <source>Invalid context config in {source} (%n fault(s)):</source>
            <translation>
                <numerusform>{source} 中的上下文配置无效（%n 处错误）：</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Invalid context config (%n fault(s)):</source>
            <translation>
                <numerusform>上下文配置无效（%n 处错误）：</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>DocumentError</name>
        <message>
            <source>{file} is not a text, PDF or Word document.</source>
            <translation>{file} 不是文本、PDF 或 Word 文档。</translation>
        </message>
        <message>
            <source>{file} is {size}; documents over {limit} are not attached.</source>
            <translation>{file} 大小为 {size}；超过 {limit} 的文档不会被添加为附件。</translation>
        </message>
        <message>
            <source>{file} is too long: about {tokens} tokens of text, more than the {limit} a document may have.</source>
            <translation>{file} 太长：文本约 {tokens} 个 token，超过了单个文档 {limit} 的上限。</translation>
        </message>
        <message>
            <source>{file} cannot be read: {error}.</source>
            <translation>无法读取 {file}：{error}。</translation>
        </message>
        <message>
            <source>{file} is not a text file (it holds binary data).</source>
            <translation>{file} 不是文本文件（其中包含二进制数据）。</translation>
        </message>
        <message>
            <source>{file} is not a readable PDF (damaged, or not a PDF).</source>
            <translation>{file} 不是可读取的 PDF（已损坏，或并非 PDF）。</translation>
        </message>
        <message>
            <source>{file} has no text to extract (its pages are probably scanned images).</source>
            <translation>{file} 中没有可提取的文字（其页面可能是扫描图片）。</translation>
        </message>
        <message>
            <source>{file} is not a readable PDF (damaged, or encrypted).</source>
            <translation>{file} 不是可读取的 PDF（已损坏或已加密）。</translation>
        </message>
        <message>
            <source>{file} is not a readable Word document.</source>
            <translation>{file} 不是可读取的 Word 文档。</translation>
        </message>
        <message>
            <source>The attached documents come to about {tokens} tokens: more than fits the model's context (about {context} tokens) with room for an answer.</source>
            <translation>附加的文档共约 {tokens} 个 token：超出了模型上下文（约 {context} 个 token）在留出回答空间后所能容纳的量。</translation>
        </message>
        <message>
            <source>{file} is encrypted (password-protected).</source>
            <translation>{file} 已加密（受密码保护）。</translation>
        </message>
    </context>
    <context>
        <name>ImportReport</name>
        <message>
            <source>it has no message tree ('mapping')</source>
            <translation>其中没有消息树（'mapping'）</translation>
        </message>
        <message>
            <source>its message tree is broken (a parent is missing or it loops)</source>
            <translation>其消息树已损坏（缺少父节点或存在循环）</translation>
        </message>
        <message>
            <source>it has no visible messages</source>
            <translation>其中没有可显示的消息</translation>
        </message>
        <message>
            <source>{count} messages on other branches left out (versions are not kept yet)</source>
            <translation>其他分支上的 {count} 条消息未导入（暂不保留版本）</translation>
        </message>
        <message>
            <source>{count} images left out (the export holds only pointers to them)</source>
            <translation>{count} 张图片未导入（导出文件只包含指向它们的链接）</translation>
        </message>
        <message>
            <source>{file}: not imported: {reason}.</source>
            <translation>{file}：未导入：{reason}。</translation>
        </message>
        <message>
            <source>{file} ({kind}): {count} imported</source>
            <translation>{file}（{kind}）：已导入 {count} 个</translation>
        </message>
        <message numerus="yes">
            <source>{title} [{id}, %n message(s)]{notes}</source>
            <translation>
                <numerusform>{title} [{id}，%n 条消息]{notes}</numerusform>
            </translation>
        </message>
        <message>
            <source>{title}: already here as {id} (skipped; import a copy?)</source>
            <translation>{title}：已存在，编号为 {id}（已跳过；要导入一份副本吗？）</translation>
        </message>
        <message>
            <source>{item}: skipped: {reason}</source>
            <translation>{item}：已跳过：{reason}</translation>
        </message>
        <message>
            <source>it is {size}, more than the {limit} an import reads</source>
            <translation>文件大小为 {size}，超过了导入可读取的 {limit}</translation>
        </message>
        <message>
            <source>it is a desktop-agent backup: use Settings → Data → Restore…</source>
            <translation>这是 desktop-agent 备份：请使用“设置 → 数据 → 恢复…”</translation>
        </message>
        <message>
            <source>it is a ZIP archive without a conversations.json</source>
            <translation>这是一个不含 conversations.json 的 ZIP 压缩包</translation>
        </message>
        <message>
            <source>its conversations.json is larger than {limit}</source>
            <translation>其中的 conversations.json 大于 {limit}</translation>
        </message>
        <message>
            <source>it is not JSON (not UTF-8 text)</source>
            <translation>不是 JSON（不是 UTF-8 文本）</translation>
        </message>
        <message>
            <source>it is empty</source>
            <translation>文件是空的</translation>
        </message>
        <message>
            <source>it is not JSON (extra data after the value)</source>
            <translation>不是 JSON（值后面还有多余的数据）</translation>
        </message>
        <message>
            <source>it is not JSON ({error})</source>
            <translation>不是 JSON（{error}）</translation>
        </message>
        <message>
            <source>its JSON nests too deeply to be read</source>
            <translation>其 JSON 嵌套太深，无法读取</translation>
        </message>
        <message>
            <source>it is not JSON (the array is not closed: the file is cut short)</source>
            <translation>不是 JSON（数组没有闭合：文件不完整）</translation>
        </message>
        <message>
            <source>it is not JSON (expected ',' between the array's items)</source>
            <translation>不是 JSON（数组元素之间应有 ','）</translation>
        </message>
        <message>
            <source>it is JSON, but not a desktop-agent export, an AgentScope session file or a ChatGPT conversations.json</source>
            <translation>是 JSON，但不是 desktop-agent 导出文件、AgentScope 会话文件或 ChatGPT 的 conversations.json</translation>
        </message>
        <message>
            <source>its schema_version is missing or invalid</source>
            <translation>其 schema_version 缺失或无效</translation>
        </message>
        <message>
            <source>it was made by a newer desktop-agent (export schema {version}; this version reads up to {supported}): update the app to import it</source>
            <translation>它由更新版本的 desktop-agent 生成（导出格式 {version}；当前版本最高只能读取 {supported}）：请更新应用后再导入</translation>
        </message>
        <message>
            <source>its 'conversations' is not a list</source>
            <translation>其 'conversations' 不是列表</translation>
        </message>
        <message>
            <source>desktop-agent export</source>
            <translation>desktop-agent 导出文件</translation>
        </message>
        <message>
            <source>AgentScope session file</source>
            <translation>AgentScope 会话文件</translation>
        </message>
        <message>
            <source>it is a session saved by a newer desktop-agent (format {version}): update the app to import it</source>
            <translation>这是由更新版本的 desktop-agent 保存的对话（格式 {version}）：请更新应用后再导入</translation>
        </message>
        <message>
            <source>desktop-agent session file</source>
            <translation>desktop-agent 会话文件</translation>
        </message>
        <message>
            <source>ChatGPT export</source>
            <translation>ChatGPT 导出文件</translation>
        </message>
        <message>
            <source>it cannot be read ({error})</source>
            <translation>无法读取（{error}）</translation>
        </message>
    </context>
    <context>
        <name>KeyStore</name>
        <message>
            <source>No system keyring is available: API keys are kept in settings.json, readable only by you.</source>
            <translation>没有可用的系统密钥环：API 密钥保存在 settings.json 中，只有你能读取。</translation>
        </message>
        <message>
            <source>API keys are kept in the system keyring ({name}).</source>
            <translation>API 密钥保存在系统密钥环（{name}）中。</translation>
        </message>
    </context>
    <context>
        <name>McpServerStatus</name>
        <message>
            <source>The server stopped.</source>
            <translation>服务器已停止。</translation>
        </message>
        <message>
            <source>The server did not answer within {seconds} s.</source>
            <translation>服务器在 {seconds} 秒内没有响应。</translation>
        </message>
        <message>
            <source>Cannot reach the MCP server at {url}.</source>
            <translation>无法连接位于 {url} 的 MCP 服务器。</translation>
        </message>
        <message>
            <source>Cannot run {command}: it was not found.</source>
            <translation>无法运行 {command}：找不到该命令。</translation>
        </message>
        <message>
            <source>The server exited while starting.</source>
            <translation>服务器在启动过程中退出了。</translation>
        </message>
        <message numerus="yes">
            <source>Connected · %n tool(s)</source>
            <translation>
                <numerusform>已连接 · %n 个工具</numerusform>
            </translation>
        </message>
        <message>
            <source>Starting…</source>
            <translation>正在启动…</translation>
        </message>
        <message>
            <source>Failed</source>
            <translation>失败</translation>
        </message>
        <message>
            <source>Off</source>
            <translation>已关闭</translation>
        </message>
    </context>
    <context>
        <name>ModelError</name>
        <message>
            <source>The model server at {url} did not answer in time: it sent nothing for {seconds} s while streaming, so the answer is incomplete.</source>
            <translation>位于 {url} 的模型服务器未及时响应：流式输出期间 {seconds} 秒内没有发送任何内容，因此回答不完整。</translation>
        </message>
        <message>
            <source>The model server at {url} did not answer in time: it sent nothing while streaming, so the answer is incomplete.</source>
            <translation>位于 {url} 的模型服务器未及时响应：流式输出期间没有发送任何内容，因此回答不完整。</translation>
        </message>
        <message>
            <source>The model server at {url} did not answer in time (request timed out).</source>
            <translation>位于 {url} 的模型服务器未及时响应（请求超时）。</translation>
        </message>
        <message>
            <source>The model server sent a response of unexpected shape: {error}</source>
            <translation>模型服务器返回的响应格式不符合预期：{error}</translation>
        </message>
        <message>
            <source>The model's answer could not be used: {error}</source>
            <translation>无法使用模型的回答：{error}</translation>
        </message>
        <message>
            <source>The model call failed: {error}</source>
            <translation>模型调用失败：{error}</translation>
        </message>
        <message>
            <source>The connection to the model server at {url} was lost mid-stream; the answer is incomplete.</source>
            <translation>与位于 {url} 的模型服务器的连接在流式输出中途断开；回答不完整。</translation>
        </message>
        <message>
            <source>Could not connect to the model server at {url}: connection refused. Is the server running, and is the base URL right?</source>
            <translation>无法连接位于 {url} 的模型服务器：连接被拒绝。服务器是否在运行？基础 URL 是否正确？</translation>
        </message>
        <message>
            <source>Could not resolve the host of the model server at {url}. Check the base URL and your network connection.</source>
            <translation>无法解析模型服务器 {url} 的主机名。请检查基础 URL 和网络连接。</translation>
        </message>
        <message>
            <source>Could not reach the model server at {url}: {error}</source>
            <translation>无法访问位于 {url} 的模型服务器：{error}</translation>
        </message>
        <message>
            <source>Check the API key in the provider settings.</source>
            <translation>请检查服务商设置中的 API 密钥。</translation>
        </message>
        <message>
            <source>Check that this API key may use this model.</source>
            <translation>请确认此 API 密钥有权使用该模型。</translation>
        </message>
        <message>
            <source>The model server refused the request (HTTP {status}){detail} {hint}</source>
            <translation>模型服务器拒绝了请求（HTTP {status}）{detail} {hint}</translation>
        </message>
        <message>
            <source>The model server does not know this model (HTTP {status}){detail} Pick another model in Settings, or check the base URL ({url}).</source>
            <translation>模型服务器不认识此模型（HTTP {status}）{detail} 请在设置中选择其他模型，或检查基础 URL（{url}）。</translation>
        </message>
        <message>
            <source>Try again in {seconds} s.</source>
            <translation>请在 {seconds} 秒后重试。</translation>
        </message>
        <message>
            <source>Try again later.</source>
            <translation>请稍后重试。</translation>
        </message>
        <message>
            <source>The model server is rate limiting requests (HTTP 429){detail} {when}</source>
            <translation>模型服务器正在限制请求频率（HTTP 429）{detail} {when}</translation>
        </message>
        <message>
            <source>The model server had an internal error (HTTP {status}){detail} Try again.</source>
            <translation>模型服务器发生内部错误（HTTP {status}）{detail} 请重试。</translation>
        </message>
        <message>
            <source>The model server rejected the request (HTTP {status}){detail}</source>
            <translation>模型服务器拒绝了请求（HTTP {status}）{detail}</translation>
        </message>
        <message>
            <source>The model server reported an error during the answer: {error}</source>
            <translation>模型服务器在回答过程中报告了错误：{error}</translation>
        </message>
    </context>
    <context>
        <name>ProviderDiscovery</name>
        <message>
            <source>{server} on port {port} needs an API key: enter it in Settings (base URL {url}).</source>
            <translation>端口 {port} 上的 {server} 需要 API 密钥：请在设置中填写（基础 URL {url}）。</translation>
        </message>
        <message>
            <source>Environment</source>
            <translation>环境变量</translation>
        </message>
        <message>
            <source>The base URL must start with http:// or https:// (got {url}).</source>
            <translation>基础 URL 必须以 http:// 或 https:// 开头（当前为 {url}）。</translation>
        </message>
        <message>
            <source>The server answered {code} {reason}.</source>
            <translation>服务器返回了 {code} {reason}。</translation>
        </message>
        <message>
            <source>The server could not be reached ({reason}).</source>
            <translation>无法连接服务器（{reason}）。</translation>
        </message>
        <message>
            <source>The server's answer is not a model list.</source>
            <translation>服务器的响应不是模型列表。</translation>
        </message>
        <message>
            <source>The server did not answer in time.</source>
            <translation>服务器未及时响应。</translation>
        </message>
    </context>
    <context>
        <name>SessionError</name>
        <message>
            <source>The session could not be opened because its file is damaged: {reason}. The file was left untouched ({path}).</source>
            <translation>无法打开此对话，因为它的文件已损坏：{reason}。文件未被改动（{path}）。</translation>
        </message>
        <message>
            <source>The session was saved by a newer version of desktop-agent (format {version}; this version reads up to {supported}). Update the app to open it; the file was left untouched.</source>
            <translation>此对话由更新版本的 desktop-agent 保存（格式 {version}；当前版本最高只能读取 {supported}）。请更新应用后再打开；文件未被改动。</translation>
        </message>
        <message>
            <source>The session was changed in another desktop-agent window since it was opened here. Open it again to continue it here.</source>
            <translation>此对话在这里打开后，已在另一个 desktop-agent 窗口中被修改。请重新打开它，再在这里继续。</translation>
        </message>
        <message>
            <source>The session is open in another desktop-agent window, so it is read-only here. Close it there to edit it here.</source>
            <translation>此对话已在另一个 desktop-agent 窗口中打开，因此在这里是只读的。请在那边关闭它，再在这里编辑。</translation>
        </message>
        <message>
            <source>The session could not be saved: {reason}. The conversation is kept in memory; free some space or check the data folder's permissions.</source>
            <translation>无法保存此对话：{reason}。对话内容仍保留在内存中；请释放一些磁盘空间，或检查数据文件夹的权限。</translation>
        </message>
    </context>
    <context>
        <name>SessionLibrary</name>
        <message>
            <source>the file is empty</source>
            <translation>文件是空的</translation>
        </message>
        <message>
            <source>it is not UTF-8 text ({error})</source>
            <translation>不是 UTF-8 文本（{error}）</translation>
        </message>
        <message>
            <source>it is not valid JSON ({error})</source>
            <translation>不是有效的 JSON（{error}）</translation>
        </message>
        <message>
            <source>its JSON nests too deeply to be read</source>
            <translation>其 JSON 嵌套太深，无法读取</translation>
        </message>
        <message>
            <source>it holds a JSON {kind}, not an object of saved parts</source>
            <translation>其中是 JSON {kind}，而不是由已保存部分组成的对象</translation>
        </message>
        <message>
            <source>its part {name} is a {kind}, not an object</source>
            <translation>其中的部分 {name} 是 {kind}，而不是对象</translation>
        </message>
        <message>
            <source>The session file is damaged: {reason}.</source>
            <translation>对话文件已损坏：{reason}。</translation>
        </message>
        <message>
            <source>Saved by a newer version of desktop-agent (format {version}); update the app to open it.</source>
            <translation>由更新版本的 desktop-agent 保存（格式 {version}）；请更新应用后再打开。</translation>
        </message>
        <message>
            <source>it cannot be read ({error})</source>
            <translation>无法读取（{error}）</translation>
        </message>
        <message>
            <source>it was cut short (it does not end where the JSON closes)</source>
            <translation>文件不完整（没有在 JSON 闭合处结束）</translation>
        </message>
        <message>
            <source>its format version is invalid</source>
            <translation>其格式版本无效</translation>
        </message>
        <message>
            <source>it could not be upgraded from format {version} ({error})</source>
            <translation>无法从格式 {version} 升级（{error}）</translation>
        </message>
        <message>
            <source>Open in another desktop-agent window (read-only here).</source>
            <translation>已在另一个 desktop-agent 窗口中打开（在这里只读）。</translation>
        </message>
        <message>
            <source>A session title cannot be empty.</source>
            <translation>对话标题不能为空。</translation>
        </message>
        <message>
            <source>its metadata is a {kind}, not an object</source>
            <translation>其元数据是 {kind}，而不是对象</translation>
        </message>
        <message>
            <source>its metadata has no schema_version</source>
            <translation>其元数据缺少 schema_version</translation>
        </message>
        <message>
            <source>This session is open in another desktop-agent window, so it is read-only here: new messages cannot be saved. Close it there, or start a new chat.</source>
            <translation>此对话已在另一个 desktop-agent 窗口中打开，因此在这里是只读的：新消息无法保存。请在那边关闭它，或新建一个对话。</translation>
        </message>
        <message>
            <source>This session is read-only here: the data folder {folder} cannot be written ({reason}), so new messages could not be saved. Make the folder writable, then open the session again.</source>
            <translation>此对话在这里是只读的：数据文件夹 {folder} 无法写入（{reason}），因此新消息无法保存。请让该文件夹可写，然后重新打开此对话。</translation>
        </message>
        <message>
            <source>This session is not in the trash.</source>
            <translation>此对话不在回收站中。</translation>
        </message>
        <message>
            <source>A session with this id exists already.</source>
            <translation>已存在相同编号的对话。</translation>
        </message>
    </context>
    <context>
        <name>SessionSummary</name>
        <message>
            <source>New session</source>
            <translation>新对话</translation>
        </message>
    </context>
    <context>
        <name>SessionSwitcher</name>
        <message>
            <source>This reply was cut short: the app closed while it was being written. What had arrived is kept above.</source>
            <translation>这条回复被中断了：应用在生成过程中关闭。已收到的内容保留在上方。</translation>
        </message>
    </context>
    <context>
        <name>SettingsFile</name>
        <message>
            <source>it could not be read ({error})</source>
            <translation>无法读取（{error}）</translation>
        </message>
        <message>
            <source>it is not valid JSON (line {line}, column {column})</source>
            <translation>不是有效的 JSON（第 {line} 行第 {column} 列）</translation>
        </message>
        <message>
            <source>it is not UTF-8 text</source>
            <translation>不是 UTF-8 文本</translation>
        </message>
        <message>
            <source>(top level)</source>
            <translation>（顶层）</translation>
        </message>
        <message>
            <source>it has invalid entries ({entries})</source>
            <translation>其中有无效的条目（{entries}）</translation>
        </message>
        <message>
            <source>Your settings file {path} could not be used: {reason}. It was kept as {kept}; default settings are in use.</source>
            <translation>无法使用你的设置文件 {path}：{reason}。它已另存为 {kept}；当前使用默认设置。</translation>
        </message>
        <message>
            <source>Your settings file {path} could not be used: {reason}.</source>
            <translation>无法使用你的设置文件 {path}：{reason}。</translation>
        </message>
    </context>
    <context>
        <name>TemplateLibrary</name>
        <message>
            <source>No saved template named {name} in {folder}.</source>
            <translation>在 {folder} 中没有名为 {name} 的已保存模板。</translation>
        </message>
        <message>
            <source>Invalid template name {name}: use 1-100 printable characters, without / \ : * ? " &lt; &gt; |, not starting with a dot or a blank.</source>
            <translation>模板名称 {name} 无效：请使用 1-100 个可打印字符，不含 / \ : * ? " &lt; &gt; |，且不以点或空格开头。</translation>
        </message>
    </context>
    <context>
        <name>ToolPermission</name>
        <message>
            <source>Run the tool {tool} of the MCP server {server} with:
{arguments}</source>
            <translation>运行 MCP 服务器 {server} 的工具 {tool}，参数为：
{arguments}</translation>
        </message>
        <message>
            <source>{path} (given as {given})</source>
            <translation>{path}（原写作 {given}）</translation>
        </message>
        <message>
            <source>Read the file {path} (at most {count} characters).</source>
            <translation>读取文件 {path}（最多 {count} 个字符）。</translation>
        </message>
        <message>
            <source>Write {count} characters to the file {path}, replacing it if it exists.</source>
            <translation>向文件 {path} 写入 {count} 个字符；如文件已存在则覆盖。</translation>
        </message>
        <message>
            <source>Run this Python code in {folder} (stopped after {seconds} s):
{code}</source>
            <translation>在 {folder} 中运行这段 Python 代码（{seconds} 秒后停止）：
{code}</translation>
        </message>
        <message>
            <source>Run this shell command in {folder} (stopped after {seconds} s):
{command}</source>
            <translation>在 {folder} 中运行这条 shell 命令（{seconds} 秒后停止）：
{command}</translation>
        </message>
    </context>
    <context>
        <name>Transcription</name>
        <message>
            <source>This provider does not offer speech-to-text (/v1/audio/transcriptions).</source>
            <translation>此服务商不提供语音转文字（/v1/audio/transcriptions）。</translation>
        </message>
        <message>
            <source>Transcription failed: {error}</source>
            <translation>语音转文字失败：{error}</translation>
        </message>
    </context>
    <context>
        <name>TurnStats</name>
        <message>
            <source>reasoning</source>
            <translation>推理</translation>
        </message>
        <message>
            <source>answer</source>
            <translation>回答</translation>
        </message>
        <message>
            <source>{step} {time} · {tokens} tok</source>
            <translation>{step} {time} · {tokens} tok</translation>
        </message>
        <message>
            <source>{rate} tok/s</source>
            <translation>{rate} tok/s</translation>
        </message>
        <message>
            <source>{time} to first token</source>
            <translation>首 token {time}</translation>
        </message>
        <message>
            <source>{input} in · {output} out</source>
            <translation>输入 {input} · 输出 {output}</translation>
        </message>
        <message>
            <source>{seconds} s</source>
            <translation>{seconds} 秒</translation>
        </message>
    </context>
</TS>

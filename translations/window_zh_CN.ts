<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
    <context>
        <name>AssistantEditor</name>
        <message>
            <source>Chat default</source>
            <translation>跟随对话</translation>
        </message>
        <message>
            <source>Date and time</source>
            <translation>日期和时间</translation>
        </message>
        <message>
            <source>Calculator</source>
            <translation>计算器</translation>
        </message>
        <message>
            <source>Read files</source>
            <translation>读取文件</translation>
        </message>
        <message>
            <source>Write files</source>
            <translation>写入文件</translation>
        </message>
        <message>
            <source>Run Python code</source>
            <translation>运行 Python 代码</translation>
        </message>
        <message>
            <source>Run shell commands</source>
            <translation>运行 shell 命令</translation>
        </message>
        <message>
            <source>Assistants</source>
            <translation>助手</translation>
        </message>
        <message>
            <source>The chat's current model</source>
            <translation>对话当前的模型</translation>
        </message>
        <message>
            <source>Offer tools to the model</source>
            <translation>向模型提供工具</translation>
        </message>
        <message>
            <source>MCP: {name}</source>
            <translation>MCP：{name}</translation>
        </message>
        <message>
            <source>Icon, name</source>
            <translation>图标、名称</translation>
        </message>
        <message>
            <source>Instructions</source>
            <translation>指令</translation>
        </message>
        <message>
            <source>Context template</source>
            <translation>上下文模板</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>模型</translation>
        </message>
        <message>
            <source>Temperature</source>
            <translation>温度</translation>
        </message>
        <message>
            <source>Tools</source>
            <translation>工具</translation>
        </message>
        <message>
            <source>New</source>
            <translation>新建</translation>
        </message>
        <message>
            <source>Duplicate</source>
            <translation>创建副本</translation>
        </message>
        <message>
            <source>Delete</source>
            <translation>删除</translation>
        </message>
        <message>
            <source>Import…</source>
            <translation>导入…</translation>
        </message>
        <message>
            <source>Export…</source>
            <translation>导出…</translation>
        </message>
        <message>
            <source>Save</source>
            <translation>保存</translation>
        </message>
        <message>
            <source>New assistant</source>
            <translation>新助手</translation>
        </message>
        <message>
            <source>Created: {name}</source>
            <translation>已创建：{name}</translation>
        </message>
        <message>
            <source>Duplicated: {name}</source>
            <translation>已创建副本：{name}</translation>
        </message>
        <message>
            <source>Deleted: {name}</source>
            <translation>已删除：{name}</translation>
        </message>
        <message>
            <source>An assistant needs a name.</source>
            <translation>助手需要一个名称。</translation>
        </message>
        <message>
            <source>Saved: {name}</source>
            <translation>已保存：{name}</translation>
        </message>
        <message>
            <source>Could not import {file}: {error}</source>
            <translation>无法导入 {file}：{error}</translation>
        </message>
        <message>
            <source>Imported: {name}</source>
            <translation>已导入：{name}</translation>
        </message>
        <message>
            <source>Could not export: {error}</source>
            <translation>无法导出：{error}</translation>
        </message>
        <message>
            <source>Exported to {path}</source>
            <translation>已导出到 {path}</translation>
        </message>
        <message>
            <source>Import an assistant</source>
            <translation>导入助手</translation>
        </message>
        <message>
            <source>Assistant (*.json)</source>
            <translation>助手 (*.json)</translation>
        </message>
        <message>
            <source>Export the assistant</source>
            <translation>导出助手</translation>
        </message>
        <message>
            <source>Default template</source>
            <translation>默认模板</translation>
        </message>
        <message>
            <source>Tool: {name}</source>
            <translation>工具：{name}</translation>
        </message>
    </context>
    <context>
        <name>AssistantMenu</name>
        <message>
            <source>New chat with…</source>
            <translation>新建对话，使用…</translation>
        </message>
    </context>
    <context>
        <name>AssistantPicker</name>
        <message>
            <source>The assistant of this chat: its instructions, tools and default model (Ctrl+Shift+A)</source>
            <translation>本对话的助手：它的指令、工具和默认模型（Ctrl+Shift+A）</translation>
        </message>
        <message>
            <source>Edit assistants…</source>
            <translation>编辑助手…</translation>
        </message>
    </context>
    <context>
        <name>Banner</name>
        <message>
            <source>Open Settings</source>
            <translation>打开设置</translation>
        </message>
    </context>
    <context>
        <name>ChatController</name>
        <message>
            <source>Continuing…</source>
            <translation>正在继续…</translation>
        </message>
        <message>
            <source>Retrying…</source>
            <translation>正在重试…</translation>
        </message>
        <message>
            <source>Answering…</source>
            <translation>正在回答…</translation>
        </message>
        <message>
            <source>Answer cut off — Retry or Continue</source>
            <translation>回答被截断——可重试或继续</translation>
        </message>
        <message>
            <source>Stopped at the token limit — Continue available</source>
            <translation>已达到 token 上限而停止——可继续</translation>
        </message>
        <message>
            <source>Stopped by the content filter</source>
            <translation>已被内容过滤器停止</translation>
        </message>
        <message>
            <source>Ready</source>
            <translation>就绪</translation>
        </message>
        <message>
            <source>Stopped</source>
            <translation>已停止</translation>
        </message>
        <message>
            <source>Error — Retry available</source>
            <translation>出错——可重试</translation>
        </message>
        <message>
            <source>Error</source>
            <translation>出错</translation>
        </message>
    </context>
    <context>
        <name>ChatParamsDialog</name>
        <message>
            <source>Parameters of this chat</source>
            <translation>本对话的参数</translation>
        </message>
        <message>
            <source>Temperature</source>
            <translation>温度</translation>
        </message>
        <message>
            <source>Only this chat; the defaults are in Settings → Parameters. A server that rejects a parameter says so in the chat; Retry then sends the message without it.</source>
            <translation>仅作用于本对话；默认值在“设置 → 参数”中。服务器若不接受某个参数，会在对话中说明；此时点击“重试”会不带该参数重新发送消息。</translation>
        </message>
        <message>
            <source>Parameters</source>
            <translation>参数</translation>
        </message>
        <message>
            <source>Temperature, max output tokens, context budget, … of this chat (Ctrl+Shift+P)</source>
            <translation>本对话的温度、最大输出 token 数、上下文预算等（Ctrl+Shift+P）</translation>
        </message>
    </context>
    <context>
        <name>DesktopApp</name>
        <message>
            <source>Connect a model in Settings first.</source>
            <translation>请先在设置中连接一个模型。</translation>
        </message>
        <message>
            <source>Looking for a model…</source>
            <translation>正在查找模型…</translation>
        </message>
        <message>
            <source>Not connected</source>
            <translation>未连接</translation>
        </message>
        <message>
            <source>Data</source>
            <translation>数据</translation>
        </message>
        <message>
            <source>Copied the last answer</source>
            <translation>已复制最后一条回答</translation>
        </message>
        <message>
            <source>No answer to copy yet</source>
            <translation>还没有可复制的回答</translation>
        </message>
        <message>
            <source>No model</source>
            <translation>无模型</translation>
        </message>
        <message>
            <source>Ready</source>
            <translation>就绪</translation>
        </message>
    </context>
    <context>
        <name>FirstRunPanel</name>
        <message>
            <source>desktop-agent talks to any OpenAI-compatible server: OpenAI itself, or one running on this computer such as Ollama, LM Studio, llama.cpp or vLLM.&lt;br&gt;&lt;br&gt;No server was found. You can:&lt;ul&gt;&lt;li&gt;open &lt;b&gt;Settings&lt;/b&gt; and enter a base URL, an API key and a model;&lt;/li&gt;&lt;li&gt;or start a local server (e.g. &lt;code&gt;ollama serve&lt;/code&gt;) and search again;&lt;/li&gt;&lt;li&gt;or set &lt;code&gt;OPENAI_API_KEY&lt;/code&gt; (and optionally &lt;code&gt;OPENAI_BASE_URL&lt;/code&gt;, &lt;code&gt;DESKTOP_AGENT_MODEL&lt;/code&gt;) before starting the app.&lt;/li&gt;&lt;/ul&gt;</source>
            <translation>desktop-agent 可以连接任何兼容 OpenAI 的服务器：OpenAI 本身，或运行在这台电脑上的服务器，例如 Ollama、LM Studio、llama.cpp 或 vLLM。&lt;br&gt;&lt;br&gt;没有找到服务器。你可以：&lt;ul&gt;&lt;li&gt;打开&lt;b&gt;设置&lt;/b&gt;，填写基础 URL、API 密钥和模型；&lt;/li&gt;&lt;li&gt;或启动一个本地服务器（例如 &lt;code&gt;ollama serve&lt;/code&gt;），然后重新搜索；&lt;/li&gt;&lt;li&gt;或在启动应用前设置 &lt;code&gt;OPENAI_API_KEY&lt;/code&gt;（以及可选的 &lt;code&gt;OPENAI_BASE_URL&lt;/code&gt;、&lt;code&gt;DESKTOP_AGENT_MODEL&lt;/code&gt;）。&lt;/li&gt;&lt;/ul&gt;</translation>
        </message>
        <message>
            <source>Connect a model to start chatting</source>
            <translation>连接一个模型，开始对话</translation>
        </message>
        <message>
            <source>Open Settings</source>
            <translation>打开设置</translation>
        </message>
        <message>
            <source>Search again</source>
            <translation>重新搜索</translation>
        </message>
        <message>
            <source>Searching…</source>
            <translation>正在搜索…</translation>
        </message>
    </context>
    <context>
        <name>LiveStats</name>
        <message>
            <source>Waiting for the first token…</source>
            <translation>正在等待第一个 token…</translation>
        </message>
    </context>
    <context>
        <name>MainWindow</name>
        <message>
            <source>Desktop Agent</source>
            <translation>Desktop Agent</translation>
        </message>
        <message>
            <source>This chat is in the Trash: restore it to continue.</source>
            <translation>此对话在回收站中：恢复后才能继续。</translation>
        </message>
    </context>
    <context>
        <name>ModelPicker</name>
        <message>
            <source>No model</source>
            <translation>无模型</translation>
        </message>
        <message>
            <source>Model of this chat: {model} — click to change (Ctrl+Shift+L)</source>
            <translation>本对话的模型：{model}——点击更换（Ctrl+Shift+L）</translation>
        </message>
        <message>
            <source>Loading models…</source>
            <translation>正在加载模型…</translation>
        </message>
        <message>
            <source>Could not list models: {error}</source>
            <translation>无法列出模型：{error}</translation>
        </message>
    </context>
    <context>
        <name>ModelPopup</name>
        <message>
            <source>Recent</source>
            <translation>最近使用</translation>
        </message>
        <message>
            <source>Search models…</source>
            <translation>搜索模型…</translation>
        </message>
        <message>
            <source>No models listed</source>
            <translation>没有列出任何模型</translation>
        </message>
    </context>
    <context>
        <name>PermissionDialog</name>
        <message>
            <source>Allow this tool?</source>
            <translation>允许使用此工具吗？</translation>
        </message>
        <message>
            <source>The assistant wants to run &lt;b&gt;{tool}&lt;/b&gt;.</source>
            <translation>助手想要运行 &lt;b&gt;{tool}&lt;/b&gt;。</translation>
        </message>
        <message>
            <source>Arguments:</source>
            <translation>参数：</translation>
        </message>
        <message>
            <source>Allow &amp;once</source>
            <translation>允许一次(&amp;O)</translation>
        </message>
        <message>
            <source>&amp;Always allow in this chat</source>
            <translation>在本对话中始终允许(&amp;A)</translation>
        </message>
        <message>
            <source>&amp;Stop the answer</source>
            <translation>停止回答(&amp;S)</translation>
        </message>
        <message>
            <source>Deny this call and stop the assistant's answer</source>
            <translation>拒绝这次调用，并停止助手的回答</translation>
        </message>
        <message>
            <source>Allow this call only (Alt+O)</source>
            <translation>只允许这一次调用（Alt+O）</translation>
        </message>
        <message>
            <source>Allow this tool until the chat ends; revoke it by the message box (Alt+A)</source>
            <translation>在本对话结束前一直允许此工具；可在消息输入框旁撤销（Alt+A）</translation>
        </message>
        <message>
            <source>&amp;Deny</source>
            <translation>拒绝(&amp;D)</translation>
        </message>
    </context>
    <context>
        <name>SessionDelegate</name>
        <message>
            <source>Session title</source>
            <translation>对话标题</translation>
        </message>
    </context>
    <context>
        <name>SessionListModel</name>
        <message>
            <source>Damaged</source>
            <translation>已损坏</translation>
        </message>
        <message>
            <source>From a newer version</source>
            <translation>来自更新的版本</translation>
        </message>
        <message>
            <source>Open in another window</source>
            <translation>已在另一个窗口中打开</translation>
        </message>
        <message>
            <source>Damaged session</source>
            <translation>已损坏的对话</translation>
        </message>
        <message>
            <source>Session from a newer version</source>
            <translation>来自更新版本的对话</translation>
        </message>
        <message>
            <source>Problem</source>
            <translation>有问题</translation>
        </message>
        <message>
            <source>{status}: {error}</source>
            <translation>{status}：{error}</translation>
        </message>
        <message numerus="yes">
            <source>%n message(s)</source>
            <translation>
                <numerusform>%n 条消息</numerusform>
            </translation>
        </message>
        <message>
            <source>Last active {time}</source>
            <translation>最后活动于 {time}</translation>
        </message>
        <message>
            <source>Model: {model}</source>
            <translation>模型：{model}</translation>
        </message>
        <message>
            <source>just now</source>
            <translation>刚刚</translation>
        </message>
        <message numerus="yes">
            <source>%n minute(s) ago</source>
            <translation>
                <numerusform>%n 分钟前</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n hour(s) ago</source>
            <translation>
                <numerusform>%n 小时前</numerusform>
            </translation>
        </message>
        <message>
            <source>Yesterday</source>
            <translation>昨天</translation>
        </message>
        <message>
            <source>d MMM</source>
            <comment>QDate format of a day this year: 12 Mar</comment>
            <translation>M月d日</translation>
        </message>
        <message>
            <source>d MMM yyyy</source>
            <comment>QDate format of a day another year: 12 Mar 2024</comment>
            <translation>yyyy年M月d日</translation>
        </message>
    </context>
    <context>
        <name>SessionProblemPanel</name>
        <message>
            <source>Back to the conversation</source>
            <translation>返回对话</translation>
        </message>
        <message>
            <source>Move to trash…</source>
            <translation>移到回收站…</translation>
        </message>
        <message>
            <source>This session needs a newer desktop-agent</source>
            <translation>此对话需要更新版本的 desktop-agent</translation>
        </message>
        <message>
            <source>This session can't be opened</source>
            <translation>无法打开此对话</translation>
        </message>
        <message>
            <source>File: {path}</source>
            <translation>文件：{path}</translation>
        </message>
    </context>
    <context>
        <name>SessionsController</name>
        <message>
            <source>This session is open in another desktop-agent window, so it is read-only here: new messages cannot be saved. Close it there, or start a new chat.</source>
            <translation>此对话已在另一个 desktop-agent 窗口中打开，因此在这里是只读的：新消息无法保存。请在那边关闭它，或新建一个对话。</translation>
        </message>
        <message>
            <source>This session is read-only here (see the message above the chat).</source>
            <translation>此对话在这里是只读的（见对话上方的提示）。</translation>
        </message>
        <message>
            <source>Connect a model in Settings first.</source>
            <translation>请先在设置中连接一个模型。</translation>
        </message>
        <message>
            <source>Stop the reply?</source>
            <translation>停止回复吗？</translation>
        </message>
        <message>
            <source>A reply is still being written.</source>
            <translation>回复仍在生成中。</translation>
        </message>
        <message>
            <source>Stop it and switch? What was written so far is kept.</source>
            <translation>要停止并切换吗？已生成的内容会保留。</translation>
        </message>
        <message>
            <source>Stop &amp;&amp; switch</source>
            <translation>停止并切换</translation>
        </message>
        <message>
            <source>The session could not be renamed: {error}</source>
            <translation>无法重命名对话：{error}</translation>
        </message>
        <message>
            <source>Empty trash</source>
            <translation>清空回收站</translation>
        </message>
        <message>
            <source>Delete the sessions in the trash for good?</source>
            <translation>要永久删除回收站中的对话吗？</translation>
        </message>
        <message>
            <source>This cannot be undone.</source>
            <translation>此操作无法撤销。</translation>
        </message>
        <message>
            <source>Searching…</source>
            <translation>正在搜索…</translation>
        </message>
        <message>
            <source>No sessions match “{text}”.</source>
            <translation>没有与“{text}”匹配的对话。</translation>
        </message>
        <message>
            <source>“{title}” cannot be shown: {error}</source>
            <translation>无法显示“{title}”：{error}</translation>
        </message>
        <message>
            <source>The trash is empty.</source>
            <translation>回收站是空的。</translation>
        </message>
        <message>
            <source>{model} · {provider}  (this session used {session_model})</source>
            <translation>{model} · {provider}（此对话曾使用 {session_model}）</translation>
        </message>
        <message>
            <source>this session</source>
            <translation>此对话</translation>
        </message>
    </context>
    <context>
        <name>ShortcutOverlay</name>
        <message>
            <source>Keyboard shortcuts</source>
            <translation>键盘快捷键</translation>
        </message>
        <message>
            <source>Esc to close</source>
            <translation>按 Esc 关闭</translation>
        </message>
        <message>
            <source>Send the message</source>
            <translation>发送消息</translation>
        </message>
        <message>
            <source>New line in the message</source>
            <translation>在消息中换行</translation>
        </message>
        <message>
            <source>Stop the answer</source>
            <translation>停止回答</translation>
        </message>
        <message>
            <source>Record a voice message</source>
            <translation>录制语音消息</translation>
        </message>
        <message>
            <source>New chat</source>
            <translation>新建对话</translation>
        </message>
        <message>
            <source>Choose the chat's model</source>
            <translation>选择对话的模型</translation>
        </message>
        <message>
            <source>Choose the chat's assistant</source>
            <translation>选择对话的助手</translation>
        </message>
        <message>
            <source>Parameters of this chat</source>
            <translation>本对话的参数</translation>
        </message>
        <message>
            <source>Find in this chat</source>
            <translation>在本对话中查找</translation>
        </message>
        <message>
            <source>Search chats</source>
            <translation>搜索对话</translation>
        </message>
        <message>
            <source>Copy the last answer</source>
            <translation>复制最后一条回答</translation>
        </message>
        <message>
            <source>Edit your last message (in an empty message field)</source>
            <translation>编辑你的上一条消息（在空的输入框中）</translation>
        </message>
        <message>
            <source>Regenerate the last answer</source>
            <translation>重新生成最后一条回答</translation>
        </message>
        <message>
            <source>Previous version of the message</source>
            <translation>消息的上一个版本</translation>
        </message>
        <message>
            <source>Next version of the message</source>
            <translation>消息的下一个版本</translation>
        </message>
        <message>
            <source>Settings</source>
            <translation>设置</translation>
        </message>
        <message>
            <source>Context template editor</source>
            <translation>上下文模板编辑器</translation>
        </message>
        <message>
            <source>Export the chat</source>
            <translation>导出对话</translation>
        </message>
        <message>
            <source>Show these shortcuts</source>
            <translation>显示这些快捷键</translation>
        </message>
        <message>
            <source>{keys} or {other}</source>
            <translation>{keys} 或 {other}</translation>
        </message>
    </context>
    <context>
        <name>Sidebar</name>
        <message>
            <source>+  New chat</source>
            <translation>+  新建对话</translation>
        </message>
        <message>
            <source>Start a fresh conversation (Ctrl+N)</source>
            <translation>开始一个新对话（Ctrl+N）</translation>
        </message>
        <message>
            <source>Trash</source>
            <translation>回收站</translation>
        </message>
        <message>
            <source>Deleted sessions, until the trash is emptied</source>
            <translation>已删除的对话，保留到清空回收站为止</translation>
        </message>
        <message>
            <source>Empty trash…</source>
            <translation>清空回收站…</translation>
        </message>
        <message>
            <source>⚙  Settings</source>
            <translation>⚙  设置</translation>
        </message>
        <message>
            <source>Template</source>
            <translation>模板</translation>
        </message>
        <message>
            <source>Edit how the prompt is assembled (Ctrl+T)</source>
            <translation>编辑提示词的组装方式（Ctrl+T）</translation>
        </message>
        <message>
            <source>Search sessions…</source>
            <translation>搜索对话…</translation>
        </message>
        <message>
            <source>←  Sessions</source>
            <translation>←  对话</translation>
        </message>
        <message>
            <source>Restore</source>
            <translation>恢复</translation>
        </message>
        <message>
            <source>Open</source>
            <translation>打开</translation>
        </message>
        <message>
            <source>Rename</source>
            <translation>重命名</translation>
        </message>
        <message>
            <source>Export…</source>
            <translation>导出…</translation>
        </message>
        <message>
            <source>Copy chat as Markdown</source>
            <translation>复制对话为 Markdown</translation>
        </message>
        <message>
            <source>Delete…</source>
            <translation>删除…</translation>
        </message>
    </context>
    <context>
        <name>StatusLine</name>
        <message>
            <source>No model</source>
            <translation>无模型</translation>
        </message>
        <message>
            <source>Last turn: {input} in · {output} out · {total} tokens</source>
            <translation>上一轮：输入 {input} · 输出 {output} · 共 {total} token</translation>
        </message>
    </context>
    <context>
        <name>TrashPreview</name>
        <message>
            <source>In the Trash · read-only. Restore it to continue the chat.</source>
            <translation>在回收站中 · 只读。恢复后即可继续此对话。</translation>
        </message>
        <message>
            <source>Restore</source>
            <translation>恢复</translation>
        </message>
    </context>
    <context>
        <name>UndoBar</name>
        <message>
            <source>Dismiss (the session stays in the Trash)</source>
            <translation>关闭提示（对话仍留在回收站中）</translation>
        </message>
        <message>
            <source>Undo</source>
            <translation>撤销</translation>
        </message>
        <message>
            <source>Bring the session back</source>
            <translation>恢复这个对话</translation>
        </message>
        <message>
            <source>Deleted “{title}”.</source>
            <translation>已删除“{title}”。</translation>
        </message>
        <message>
            <source>It is in the Trash until the trash is emptied.</source>
            <translation>它会留在回收站中，直到清空回收站。</translation>
        </message>
        <message>
            <source>Exchange deleted</source>
            <translation>已删除一轮问答</translation>
        </message>
    </context>
</TS>

<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
    <context>
        <name>AllowedToolsChip</name>
        <message>
            <source>{tool} allowed</source>
            <translation>已允许 {tool}</translation>
        </message>
        <message numerus="yes">
            <source>%n tools allowed</source>
            <translation>
                <numerusform>已允许 %n 个工具</numerusform>
            </translation>
        </message>
        <message>
            <source>Running without asking in this chat: {names}. Click to revoke.</source>
            <translation>在此对话中无需询问即可运行：{names}。点击可撤销。</translation>
        </message>
        <message>
            <source>Ask again before {tool}</source>
            <translation>运行 {tool} 前重新询问</translation>
        </message>
        <message>
            <source>Ask again before every tool</source>
            <translation>运行任何工具前都重新询问</translation>
        </message>
    </context>
    <context>
        <name>AnswerStats</name>
        <message>
            <source>Model: {model}</source>
            <translation>模型：{model}</translation>
        </message>
        <message>
            <source>Time to first token: {seconds} s</source>
            <translation>首个 token 用时：{seconds} 秒</translation>
        </message>
        <message>
            <source>Speed: {rate} tokens/s</source>
            <translation>速度：{rate} token/s</translation>
        </message>
        <message>
            <source>Tokens: {input} in · {output} out</source>
            <translation>token：输入 {input} · 输出 {output}</translation>
        </message>
        <message>
            <source>Total time: {seconds} s</source>
            <translation>总用时：{seconds} 秒</translation>
        </message>
        <message>
            <source>Steps: {timeline}</source>
            <translation>步骤：{timeline}</translation>
        </message>
    </context>
    <context>
        <name>AttachmentChip</name>
        <message>
            <source>Pasted image</source>
            <translation>粘贴的图片</translation>
        </message>
        <message>
            <source>IMG</source>
            <translation>图片</translation>
        </message>
        <message>
            <source>Remove {name}</source>
            <translation>移除 {name}</translation>
        </message>
    </context>
    <context>
        <name>AudioChip</name>
        <message>
            <source>Play</source>
            <translation>播放</translation>
        </message>
        <message>
            <source>To text</source>
            <translation>转文字</translation>
        </message>
        <message>
            <source>Transcribe into the message (to edit)</source>
            <translation>转写成文字放入消息（可再编辑）</translation>
        </message>
        <message>
            <source>Playback needs QtMultimedia (PySide6 Addons).</source>
            <translation>播放需要 QtMultimedia（PySide6 Addons）。</translation>
        </message>
        <message>
            <source>Stop</source>
            <translation>停止</translation>
        </message>
        <message>
            <source>Transcribing…</source>
            <translation>正在转写…</translation>
        </message>
        <message>
            <source>The audio could not be read: {reason}</source>
            <translation>无法读取音频：{reason}</translation>
        </message>
    </context>
    <context>
        <name>AudioView</name>
        <message>
            <source>Play</source>
            <translation>播放</translation>
        </message>
        <message>
            <source>Open externally</source>
            <translation>用外部程序打开</translation>
        </message>
        <message>
            <source>Receiving audio…</source>
            <translation>正在接收音频…</translation>
        </message>
        <message>
            <source>Audio playback is unavailable (QtMultimedia is not installed).</source>
            <translation>无法播放音频（未安装 QtMultimedia）。</translation>
        </message>
        <message>
            <source>Audio · {source}</source>
            <translation>音频 · {source}</translation>
        </message>
        <message>
            <source>unsupported source {url}</source>
            <translation>不支持的来源 {url}</translation>
        </message>
        <message>
            <source>the audio data is empty</source>
            <translation>音频数据为空</translation>
        </message>
        <message>
            <source>unsupported or damaged audio</source>
            <translation>音频格式不受支持或已损坏</translation>
        </message>
        <message>
            <source>Pause</source>
            <translation>暂停</translation>
        </message>
        <message>
            <source>Could not load audio: {reason}</source>
            <translation>无法加载音频：{reason}</translation>
        </message>
    </context>
    <context>
        <name>CapBar</name>
        <message>
            <source>Show more</source>
            <translation>显示更多</translation>
        </message>
        <message>
            <source>Render more of this text</source>
            <translation>显示这段文本的更多内容</translation>
        </message>
        <message>
            <source>Save to file…</source>
            <translation>保存到文件…</translation>
        </message>
        <message>
            <source>Save the whole text to a file</source>
            <translation>将完整文本保存到文件</translation>
        </message>
        <message>
            <source>Available when the reply ends</source>
            <translation>回复结束后可用</translation>
        </message>
        <message>
            <source>Showing the first {shown} of {total}.</source>
            <translation>仅显示前 {shown}（共 {total}）。</translation>
        </message>
        <message>
            <source>Save the whole text</source>
            <translation>保存完整文本</translation>
        </message>
        <message>
            <source>Could not save to {path}: {problem}</source>
            <translation>无法保存到 {path}：{problem}</translation>
        </message>
        <message>
            <source>Saved to {path}.</source>
            <translation>已保存到 {path}。</translation>
        </message>
    </context>
    <context>
        <name>ChatView</name>
        <message>
            <source>↓ Jump to latest</source>
            <translation>↓ 跳到最新</translation>
        </message>
    </context>
    <context>
        <name>Composer</name>
        <message>
            <source>Attach images, audio or documents (text, PDF, Word)</source>
            <translation>添加图片、音频或文档（文本、PDF、Word）</translation>
        </message>
        <message>
            <source>Send</source>
            <translation>发送</translation>
        </message>
        <message>
            <source>Attach images, audio or documents</source>
            <translation>添加图片、音频或文档</translation>
        </message>
        <message>
            <source>Images and audio ({patterns})</source>
            <translation>图片和音频 ({patterns})</translation>
        </message>
        <message>
            <source>Documents ({patterns})</source>
            <translation>文档 ({patterns})</translation>
        </message>
        <message>
            <source>All files (*)</source>
            <translation>所有文件 (*)</translation>
        </message>
        <message>
            <source>Still reading {names}…</source>
            <translation>仍在读取 {names}…</translation>
        </message>
        <message>
            <source>{warning} Press Send again to send anyway.</source>
            <translation>{warning}如仍要发送，请再按一次“发送”。</translation>
        </message>
        <message>
            <source>Stop</source>
            <translation>停止</translation>
        </message>
    </context>
    <context>
        <name>ComposerInput</name>
        <message>
            <source>Message the assistant…  (Enter to send, Shift+Enter for a new line)</source>
            <translation>给助手发消息…（Enter 发送，Shift+Enter 换行）</translation>
        </message>
    </context>
    <context>
        <name>ConversationModel</name>
        <message>
            <source>Error: {error}</source>
            <translation>错误：{error}</translation>
        </message>
    </context>
    <context>
        <name>CopyButton</name>
        <message>
            <source>Copy</source>
            <translation>复制</translation>
        </message>
        <message>
            <source>Copy to clipboard</source>
            <translation>复制到剪贴板</translation>
        </message>
        <message>
            <source>Copied</source>
            <translation>已复制</translation>
        </message>
    </context>
    <context>
        <name>DismissibleNotice</name>
        <message>
            <source>Dismiss</source>
            <translation>关闭</translation>
        </message>
    </context>
    <context>
        <name>DocumentChip</name>
        <message numerus="yes">
            <source>%n pages</source>
            <translation>
                <numerusform>%n 页</numerusform>
            </translation>
        </message>
        <message>
            <source>≈ {tokens} tokens</source>
            <translation>约 {tokens} token</translation>
        </message>
        <message numerus="yes">
            <source>%n page images</source>
            <translation>
                <numerusform>%n 张页面图片</numerusform>
            </translation>
        </message>
        <message>
            <source>Click to preview the text sent to the model</source>
            <translation>点击预览发送给模型的文本</translation>
        </message>
        <message>
            <source>Reading…</source>
            <translation>正在读取…</translation>
        </message>
        <message>
            <source>Remove {name}</source>
            <translation>移除 {name}</translation>
        </message>
        <message>
            <source>Pages as images</source>
            <translation>页面转图片</translation>
        </message>
        <message>
            <source>Also send the first {count} pages as images, for models that see (scanned pages, figures, formulas)</source>
            <translation>同时把前 {count} 页作为图片发送，供能看图的模型使用（扫描页、图表、公式）</translation>
        </message>
        <message>
            <source>Rendering pages…</source>
            <translation>正在渲染页面…</translation>
        </message>
        <message>
            <source>The pages could not be rendered: {reason}</source>
            <translation>无法渲染页面：{reason}</translation>
        </message>
        <message>
            <source>Not attached: no text; send the pages as images?</source>
            <translation>未添加：没有文本；改为以图片发送页面？</translation>
        </message>
        <message>
            <source>{name} could not be read ({error}).</source>
            <translation>无法读取 {name}（{error}）。</translation>
        </message>
        <message>
            <source>Not attached: {reason}</source>
            <translation>未添加：{reason}</translation>
        </message>
        <message>
            <source>{name} — text sent to the model</source>
            <translation>{name} — 发送给模型的文本</translation>
        </message>
    </context>
    <context>
        <name>DocumentPartView</name>
        <message numerus="yes">
            <source>%n pages · {size} · sent to the model as text</source>
            <translation>
                <numerusform>%n 页 · {size} · 以文本形式发送给模型</numerusform>
            </translation>
        </message>
        <message>
            <source>{size} · sent to the model as text</source>
            <translation>{size} · 以文本形式发送给模型</translation>
        </message>
        <message>
            <source>Preview</source>
            <translation>预览</translation>
        </message>
        <message>
            <source>Show the text the model received</source>
            <translation>显示模型收到的文本</translation>
        </message>
        <message>
            <source>{name} — text sent to the model</source>
            <translation>{name} — 发送给模型的文本</translation>
        </message>
    </context>
    <context>
        <name>DocumentView</name>
        <message>
            <source>LaTeX copied</source>
            <translation>已复制 LaTeX</translation>
        </message>
    </context>
    <context>
        <name>EndingBar</name>
        <message>
            <source>interrupted</source>
            <translation>已中断</translation>
        </message>
        <message>
            <source>cut off</source>
            <translation>被截断</translation>
        </message>
        <message>
            <source>token limit</source>
            <translation>达到 token 上限</translation>
        </message>
        <message>
            <source>filtered</source>
            <translation>已过滤</translation>
        </message>
        <message>
            <source>Cut off while thinking: the connection ended before any answer was written.</source>
            <translation>思考时被截断：连接在写出回答之前就断开了。</translation>
        </message>
        <message>
            <source>Cut off: the connection ended before the answer was complete.</source>
            <translation>回答被截断：连接在回答完成前断开了。</translation>
        </message>
        <message>
            <source>Stopped at the token limit while thinking: no answer was written yet.</source>
            <translation>思考时达到 token 上限：还没有写出回答。</translation>
        </message>
        <message>
            <source>Stopped at the token limit: the answer may be incomplete.</source>
            <translation>已达到 token 上限：回答可能不完整。</translation>
        </message>
        <message>
            <source>Stopped by the server's content filter.</source>
            <translation>已被服务器的内容过滤器拦截。</translation>
        </message>
        <message>
            <source>No answer: the model only thought (open Thoughts to read it).</source>
            <translation>没有回答：模型只进行了思考（展开“思考过程”查看）。</translation>
        </message>
        <message>
            <source>Stopped before the answer began.</source>
            <translation>在回答开始前已停止。</translation>
        </message>
        <message>
            <source>Retry</source>
            <translation>重试</translation>
        </message>
        <message>
            <source>Ask again from your message</source>
            <translation>从你的消息重新提问</translation>
        </message>
        <message>
            <source>Continue</source>
            <translation>继续</translation>
        </message>
        <message>
            <source>Ask the model to go on from where it stopped</source>
            <translation>让模型从停下的地方接着写</translation>
        </message>
    </context>
    <context>
        <name>ErrorRow</name>
        <message>
            <source>Something went wrong.</source>
            <translation>出错了。</translation>
        </message>
        <message>
            <source>Retry</source>
            <translation>重试</translation>
        </message>
    </context>
    <context>
        <name>ExportController</name>
        <message>
            <source>Markdown (*.md)</source>
            <translation>Markdown (*.md)</translation>
        </message>
        <message>
            <source>Web page (*.html)</source>
            <translation>网页 (*.html)</translation>
        </message>
        <message>
            <source>PDF (*.pdf)</source>
            <translation>PDF (*.pdf)</translation>
        </message>
        <message>
            <source>JSON, lossless (*.json)</source>
            <translation>JSON，无损 (*.json)</translation>
        </message>
        <message>
            <source>Nothing to export yet: send a message first.</source>
            <translation>还没有可导出的内容：请先发送一条消息。</translation>
        </message>
        <message>
            <source>Export chat</source>
            <translation>导出对话</translation>
        </message>
        <message>
            <source>Nothing to copy yet: send a message first.</source>
            <translation>还没有可复制的内容：请先发送一条消息。</translation>
        </message>
        <message>
            <source>Could not export the chat: {reason}</source>
            <translation>无法导出对话：{reason}</translation>
        </message>
        <message>
            <source>Exported to {path}</source>
            <translation>已导出到 {path}</translation>
        </message>
        <message>
            <source>{name} exists already. Replace it?</source>
            <translation>{name} 已存在。要替换吗？</translation>
        </message>
        <message>
            <source>Replace</source>
            <translation>替换</translation>
        </message>
        <message>
            <source>Could not copy the chat: {reason}</source>
            <translation>无法复制对话：{reason}</translation>
        </message>
        <message>
            <source>Chat copied as Markdown.</source>
            <translation>已将对话复制为 Markdown。</translation>
        </message>
    </context>
    <context>
        <name>ExportOptions</name>
        <message>
            <source>Include the model's thinking</source>
            <translation>包含模型的思考过程</translation>
        </message>
        <message>
            <source>Markdown: images inside the file (else in a folder beside)</source>
            <translation>Markdown：图片嵌入文件（否则放在旁边的文件夹中）</translation>
        </message>
    </context>
    <context>
        <name>FindBar</name>
        <message>
            <source>Find in chat</source>
            <translation>在对话中查找</translation>
        </message>
        <message>
            <source>Older match (Enter)</source>
            <translation>上一个匹配（Enter）</translation>
        </message>
        <message>
            <source>Newer match (Shift+Enter)</source>
            <translation>下一个匹配（Shift+Enter）</translation>
        </message>
        <message>
            <source>Close (Esc)</source>
            <translation>关闭（Esc）</translation>
        </message>
        <message>
            <source>Searching…</source>
            <translation>正在查找…</translation>
        </message>
        <message>
            <source>No matches</source>
            <translation>无匹配</translation>
        </message>
        <message>
            <source>{current} of {count}</source>
            <translation>第 {current} 个，共 {count} 个</translation>
        </message>
    </context>
    <context>
        <name>ImageView</name>
        <message>
            <source>invalid base64 data ({error})</source>
            <translation>无效的 base64 数据（{error}）</translation>
        </message>
        <message>
            <source>not an image</source>
            <translation>不是图片</translation>
        </message>
        <message>
            <source>could not decode</source>
            <translation>无法解码</translation>
        </message>
        <message>
            <source>the image is larger than {size} MB</source>
            <translation>图片超过 {size} MB</translation>
        </message>
        <message>
            <source>Not shown: {name} is outside this chat's files</source>
            <translation>未显示：{name} 不在此对话的文件中</translation>
        </message>
        <message>
            <source>File moved or deleted: {name} is no longer at {path}</source>
            <translation>文件已移动或删除：{name} 已不在 {path}</translation>
        </message>
        <message>
            <source>Load image</source>
            <translation>加载图片</translation>
        </message>
        <message>
            <source>Remote image not loaded: {url}</source>
            <translation>未加载远程图片：{url}</translation>
        </message>
        <message>
            <source>Loading image from {url}</source>
            <translation>正在从 {url} 加载图片</translation>
        </message>
        <message>
            <source>Could not load image: unsupported source {url}.</source>
            <translation>无法加载图片：不支持的来源 {url}。</translation>
        </message>
        <message>
            <source>Loading image…</source>
            <translation>正在加载图片…</translation>
        </message>
        <message>
            <source>Could not load image: {reason}</source>
            <translation>无法加载图片：{reason}</translation>
        </message>
    </context>
    <context>
        <name>InlineEditor</name>
        <message>
            <source>Enter to resend as a new version · Esc to cancel</source>
            <translation>按 Enter 作为新版本重新发送 · 按 Esc 取消</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <source>Send</source>
            <translation>发送</translation>
        </message>
    </context>
    <context>
        <name>MarkdownView</name>
        <message>
            <source>🖼 {alt} — Load image from {host}</source>
            <translation>🖼 {alt} — 从 {host} 加载图片</translation>
        </message>
        <message>
            <source>🖼 {alt} — could not load the image: {reason}</source>
            <translation>🖼 {alt} — 无法加载图片：{reason}</translation>
        </message>
        <message>
            <source>🖼 {alt} — loading the image…</source>
            <translation>🖼 {alt} — 正在加载图片…</translation>
        </message>
        <message>
            <source>Copy</source>
            <translation>复制</translation>
        </message>
        <message>
            <source>code</source>
            <translation>代码</translation>
        </message>
        <message>
            <source>only data: and web images are shown</source>
            <translation>只显示 data: 图片和网络图片</translation>
        </message>
        <message>
            <source>Could not typeset this formula ({error})</source>
            <translation>无法排版此公式（{error}）</translation>
        </message>
        <message>
            <source>(click to copy the LaTeX)</source>
            <translation>（点击复制 LaTeX）</translation>
        </message>
    </context>
    <context>
        <name>MessageRow</name>
        <message>
            <source>[{kind} content]</source>
            <translation>[{kind} 内容]</translation>
        </message>
        <message>
            <source>Copy message text</source>
            <translation>复制消息文本</translation>
        </message>
    </context>
    <context>
        <name>PlanRow</name>
        <message>
            <source>to do</source>
            <translation>待办</translation>
        </message>
        <message>
            <source>in progress</source>
            <translation>进行中</translation>
        </message>
        <message>
            <source>done</source>
            <translation>已完成</translation>
        </message>
        <message>
            <source>abandoned</source>
            <translation>已放弃</translation>
        </message>
        <message>
            <source>replaced</source>
            <translation>已替换</translation>
        </message>
        <message>
            <source>Plan</source>
            <translation>计划</translation>
        </message>
    </context>
    <context>
        <name>ShellOutputView</name>
        <message>
            <source>Running…</source>
            <translation>正在运行…</translation>
        </message>
        <message>
            <source>Exit code {code}</source>
            <translation>退出码 {code}</translation>
        </message>
        <message>
            <source>Show less</source>
            <translation>收起</translation>
        </message>
        <message numerus="yes">
            <source>Show all %n lines</source>
            <translation>
                <numerusform>显示全部 %n 行</numerusform>
            </translation>
        </message>
        <message>
            <source>Output</source>
            <translation>输出</translation>
        </message>
        <message>
            <source>Errors (stderr)</source>
            <translation>错误（stderr）</translation>
        </message>
        <message>
            <source>No output.</source>
            <translation>没有输出。</translation>
        </message>
    </context>
    <context>
        <name>StatusChip</name>
        <message>
            <source>running…</source>
            <translation>运行中…</translation>
        </message>
        <message>
            <source>waiting for permission</source>
            <translation>等待授权</translation>
        </message>
        <message>
            <source>done</source>
            <translation>已完成</translation>
        </message>
        <message>
            <source>error</source>
            <translation>出错</translation>
        </message>
        <message>
            <source>denied</source>
            <translation>已拒绝</translation>
        </message>
        <message>
            <source>not run</source>
            <translation>未运行</translation>
        </message>
        <message>
            <source>interrupted</source>
            <translation>已中断</translation>
        </message>
    </context>
    <context>
        <name>ThinkingView</name>
        <message>
            <source>Thinking…</source>
            <translation>正在思考…</translation>
        </message>
        <message>
            <source>Thoughts</source>
            <translation>思考过程</translation>
        </message>
    </context>
    <context>
        <name>ToolResultCard</name>
        <message>
            <source>The tool call has been interrupted by the user.</source>
            <translation>工具调用已被用户中断。</translation>
        </message>
        <message>
            <source>Result</source>
            <translation>结果</translation>
        </message>
    </context>
    <context>
        <name>ToolUseCard</name>
        <message>
            <source>{name} · from {server}</source>
            <translation>{name} · 来自 {server}</translation>
        </message>
        <message>
            <source>Tool call</source>
            <translation>工具调用</translation>
        </message>
    </context>
    <context>
        <name>VersionBar</name>
        <message>
            <source>Previous version</source>
            <translation>上一个版本</translation>
        </message>
        <message>
            <source>Next version</source>
            <translation>下一个版本</translation>
        </message>
        <message>
            <source>Edit</source>
            <translation>编辑</translation>
        </message>
        <message>
            <source>Edit and resend (Up)</source>
            <translation>编辑并重新发送（↑ 键）</translation>
        </message>
        <message>
            <source>Regenerate: answer again (Ctrl+R)</source>
            <translation>重新生成：再回答一次（Ctrl+R）</translation>
        </message>
        <message>
            <source>Regenerate with another model</source>
            <translation>用其他模型重新生成</translation>
        </message>
        <message>
            <source>Delete</source>
            <translation>删除</translation>
        </message>
        <message>
            <source>Delete this exchange</source>
            <translation>删除这一轮问答</translation>
        </message>
        <message>
            <source>No model list</source>
            <translation>没有模型列表</translation>
        </message>
        <message>
            <source>Loading models…</source>
            <translation>正在加载模型…</translation>
        </message>
        <message>
            <source>Regenerate with {model}</source>
            <translation>用 {model} 重新生成</translation>
        </message>
        <message>
            <source>No other models</source>
            <translation>没有其他模型</translation>
        </message>
    </context>
    <context>
        <name>VideoView</name>
        <message>
            <source>Video · {source}</source>
            <translation>视频 · {source}</translation>
        </message>
        <message>
            <source>Open video</source>
            <translation>打开视频</translation>
        </message>
    </context>
    <context>
        <name>VoiceButton</name>
        <message>
            <source>Voice message {duration}</source>
            <translation>语音消息 {duration}</translation>
        </message>
        <message>
            <source>Stop recording and attach it (Ctrl+Shift+M)</source>
            <translation>停止录音并添加为附件（Ctrl+Shift+M）</translation>
        </message>
        <message>
            <source>Record a voice message (Ctrl+Shift+M)</source>
            <translation>录制语音消息（Ctrl+Shift+M）</translation>
        </message>
    </context>
    <context>
        <name>VoiceRecorder</name>
        <message>
            <source>Voice input needs QtMultimedia (the PySide6 Addons package).</source>
            <translation>语音输入需要 QtMultimedia（PySide6 Addons 软件包）。</translation>
        </message>
        <message>
            <source>The microphone is blocked: allow this app to use it in the system settings.</source>
            <translation>麦克风访问被阻止：请在系统设置中允许此应用使用麦克风。</translation>
        </message>
        <message>
            <source>Allow the microphone when the system asks, then press record again.</source>
            <translation>请在系统询问时允许使用麦克风，然后再按一次录音。</translation>
        </message>
        <message>
            <source>No microphone was found. Connect one (or enable it) to record.</source>
            <translation>未找到麦克风。请连接（或启用）麦克风后再录音。</translation>
        </message>
        <message>
            <source>The microphone's sample format ({name}) is not supported.</source>
            <translation>不支持此麦克风的采样格式（{name}）。</translation>
        </message>
        <message>
            <source>The microphone could not be opened.</source>
            <translation>无法打开麦克风。</translation>
        </message>
    </context>
</TS>

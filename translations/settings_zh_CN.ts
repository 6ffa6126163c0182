<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
    <context>
        <name>AgentPage</name>
        <message>
            <source>Choose…</source>
            <translation>选择…</translation>
        </message>
        <message>
            <source>Home</source>
            <translation>主文件夹</translation>
        </message>
        <message>
            <source>Use your home folder</source>
            <translation>使用你的主文件夹</translation>
        </message>
        <message>
            <source> s</source>
            <comment>seconds</comment>
            <translation> 秒</translation>
        </message>
        <message>
            <source>An answer that sends nothing for this long counts as failed (with Retry)</source>
            <translation>回答超过这么长时间没有任何输出即视为失败（可重试）</translation>
        </message>
        <message>
            <source>Working folder</source>
            <translation>工作文件夹</translation>
        </message>
        <message>
            <source>File tools resolve relative paths (like notes.txt) in this folder.</source>
            <translation>文件工具会在此文件夹中解析相对路径（如 notes.txt）。</translation>
        </message>
        <message>
            <source>Stream idle timeout</source>
            <translation>流式输出空闲超时</translation>
        </message>
        <message>
            <source>Relative paths start in: {folder}</source>
            <translation>相对路径从这里开始：{folder}</translation>
        </message>
        <message>
            <source>Relative paths start in: {folder} (this folder does not exist)</source>
            <translation>相对路径从这里开始：{folder}（此文件夹不存在）</translation>
        </message>
    </context>
    <context>
        <name>DataPage</name>
        <message>
            <source>desktop-agent backup (*.zip)</source>
            <translation>desktop-agent 备份 (*.zip)</translation>
        </message>
        <message>
            <source>Chats (*.json *.zip);;All files (*)</source>
            <translation>对话 (*.json *.zip);;所有文件 (*)</translation>
        </message>
        <message>
            <source>Include API keys and other secrets (keep the archive private)</source>
            <translation>包含 API 密钥等机密信息（请妥善保管备份文件）</translation>
        </message>
        <message>
            <source>Also restore the archive's settings</source>
            <translation>同时恢复备份中的设置</translation>
        </message>
        <message>
            <source>Back up…</source>
            <translation>备份…</translation>
        </message>
        <message>
            <source>Restore…</source>
            <translation>恢复…</translation>
        </message>
        <message>
            <source>Import chats…</source>
            <translation>导入对话…</translation>
        </message>
        <message>
            <source>Back up all chats</source>
            <translation>备份所有对话</translation>
        </message>
        <message>
            <source>Restore a backup</source>
            <translation>恢复备份</translation>
        </message>
        <message>
            <source>Import chats</source>
            <translation>导入对话</translation>
        </message>
        <message>
            <source>Backing up…</source>
            <translation>正在备份…</translation>
        </message>
        <message>
            <source>The backup could not be written: {error}.</source>
            <translation>无法写入备份：{error}。</translation>
        </message>
        <message>
            <source>{file} was not restored: {error}.</source>
            <translation>未能恢复 {file}：{error}。</translation>
        </message>
        <message>
            <source>Restore backup</source>
            <translation>恢复备份</translation>
        </message>
        <message>
            <source>Chats you have are kept when they are newer than the archive's.</source>
            <translation>现有对话比备份中的新时会被保留。</translation>
        </message>
        <message>
            <source>Restore</source>
            <translation>恢复</translation>
        </message>
        <message>
            <source>Restore cancelled: nothing was changed.</source>
            <translation>已取消恢复：没有任何更改。</translation>
        </message>
        <message>
            <source>Restoring…</source>
            <translation>正在恢复…</translation>
        </message>
        <message>
            <source>The archive's settings apply when you press Save.</source>
            <translation>备份中的设置将在你点击“保存”后生效。</translation>
        </message>
        <message>
            <source>Importing…</source>
            <translation>正在导入…</translation>
        </message>
        <message numerus="yes">
            <source>%n of these chats are here already.</source>
            <translation>
                <numerusform>其中 %n 个对话已存在。</numerusform>
            </translation>
        </message>
        <message>
            <source>Import copies</source>
            <translation>导入副本</translation>
        </message>
        <message>
            <source>Skip them</source>
            <translation>跳过</translation>
        </message>
        <message>
            <source>Copies:</source>
            <translation>副本：</translation>
        </message>
        <message>
            <source>Backup</source>
            <translation>备份</translation>
        </message>
        <message>
            <source>One archive of all chats, templates and settings.</source>
            <translation>将所有对话、模板和设置打包为一个备份文件。</translation>
        </message>
        <message>
            <source>Import</source>
            <translation>导入</translation>
        </message>
        <message>
            <source>desktop-agent JSON exports, AgentScope session files, ChatGPT exports.</source>
            <translation>支持 desktop-agent 导出的 JSON、AgentScope 会话文件和 ChatGPT 导出文件。</translation>
        </message>
    </context>
    <context>
        <name>EditCommand</name>
        <message>
            <source>Edit module</source>
            <translation>编辑模块</translation>
        </message>
        <message>
            <source>Add module</source>
            <translation>添加模块</translation>
        </message>
        <message>
            <source>Delete module</source>
            <translation>删除模块</translation>
        </message>
        <message>
            <source>Move module</source>
            <translation>移动模块</translation>
        </message>
        <message>
            <source>Edit segments</source>
            <translation>编辑片段</translation>
        </message>
        <message>
            <source>Edit segment</source>
            <translation>编辑片段</translation>
        </message>
        <message>
            <source>Replace template</source>
            <translation>替换模板</translation>
        </message>
        <message>
            <source>Rename module</source>
            <translation>重命名模块</translation>
        </message>
        <message>
            <source>Edit module note</source>
            <translation>编辑模块备注</translation>
        </message>
        <message>
            <source>Change role</source>
            <translation>更改角色</translation>
        </message>
        <message>
            <source>Enable module</source>
            <translation>启用模块</translation>
        </message>
        <message>
            <source>Disable module</source>
            <translation>停用模块</translation>
        </message>
        <message>
            <source>Change inclusion</source>
            <translation>更改纳入条件</translation>
        </message>
        <message>
            <source>Duplicate module</source>
            <translation>复制模块</translation>
        </message>
        <message>
            <source>Add text segment</source>
            <translation>添加文本片段</translation>
        </message>
        <message>
            <source>Add variable segment</source>
            <translation>添加变量片段</translation>
        </message>
        <message>
            <source>Remove segment</source>
            <translation>移除片段</translation>
        </message>
        <message>
            <source>Move segment</source>
            <translation>移动片段</translation>
        </message>
        <message>
            <source>Edit text</source>
            <translation>编辑文本</translation>
        </message>
        <message>
            <source>Choose variable</source>
            <translation>选择变量</translation>
        </message>
        <message>
            <source>Edit JSON</source>
            <translation>编辑 JSON</translation>
        </message>
        <message>
            <source>Revert</source>
            <translation>还原</translation>
        </message>
        <message>
            <source>Reset to default</source>
            <translation>恢复默认</translation>
        </message>
        <message>
            <source>Import {name}</source>
            <translation>导入 {name}</translation>
        </message>
        <message>
            <source>Load “{name}”</source>
            <translation>载入“{name}”</translation>
        </message>
    </context>
    <context>
        <name>EditorChrome</name>
        <message>
            <source>Saved templates…</source>
            <translation>已保存的模板…</translation>
        </message>
        <message>
            <source>Undo</source>
            <translation>撤销</translation>
        </message>
        <message>
            <source>Redo</source>
            <translation>重做</translation>
        </message>
        <message>
            <source>Import…</source>
            <translation>导入…</translation>
        </message>
        <message>
            <source>Replace the draft with a template JSON file</source>
            <translation>用模板 JSON 文件替换草稿</translation>
        </message>
        <message>
            <source>Export…</source>
            <translation>导出…</translation>
        </message>
        <message>
            <source>Write the draft to a template JSON file</source>
            <translation>将草稿写入模板 JSON 文件</translation>
        </message>
        <message>
            <source>Reset to default</source>
            <translation>恢复默认</translation>
        </message>
        <message>
            <source>Replace the draft with the built-in template</source>
            <translation>用内置模板替换草稿</translation>
        </message>
        <message>
            <source>Your saved templates</source>
            <translation>你保存的模板</translation>
        </message>
        <message>
            <source>Load</source>
            <translation>载入</translation>
        </message>
        <message>
            <source>Replace the draft with the selected saved template</source>
            <translation>用所选的已保存模板替换草稿</translation>
        </message>
        <message>
            <source>Save as…</source>
            <translation>另存为…</translation>
        </message>
        <message>
            <source>Save the draft in your templates</source>
            <translation>将草稿保存到你的模板中</translation>
        </message>
        <message>
            <source>Delete</source>
            <translation>删除</translation>
        </message>
        <message>
            <source>Delete the selected saved template</source>
            <translation>删除所选的已保存模板</translation>
        </message>
        <message>
            <source>Revert</source>
            <translation>还原</translation>
        </message>
        <message>
            <source>Discard the changes: back to the template in use</source>
            <translation>放弃更改，回到正在使用的模板</translation>
        </message>
        <message>
            <source>Apply</source>
            <translation>应用</translation>
        </message>
        <message>
            <source>Use this template from the next turn (Ctrl+Enter)</source>
            <translation>从下一轮起使用此模板（Ctrl+Enter）</translation>
        </message>
        <message>
            <source>my template</source>
            <translation>我的模板</translation>
        </message>
        <message>
            <source>No saved templates</source>
            <translation>没有已保存的模板</translation>
        </message>
        <message>
            <source>No problems.</source>
            <translation>没有问题。</translation>
        </message>
        <message>
            <source>⚠ 1 problem, Apply is blocked — {where}: {message}</source>
            <translation>⚠ 有 1 个问题，无法应用——{where}：{message}</translation>
        </message>
        <message numerus="yes">
            <source>⚠ %n problems, Apply is blocked — {where}: {message} (and {more} more; hover for all)</source>
            <translation>
                <numerusform>⚠ 有 %n 个问题，无法应用——{where}：{message}（另有 {more} 个，悬停查看全部）</numerusform>
            </translation>
        </message>
        <message>
            <source>JSON tab</source>
            <translation>JSON 标签页</translation>
        </message>
        <message>
            <source>module {number} “{name}”</source>
            <translation>第 {number} 个模块“{name}”</translation>
        </message>
        <message>
            <source>module {number}</source>
            <translation>第 {number} 个模块</translation>
        </message>
        <message>
            <source>segment {number}</source>
            <translation>第 {number} 个片段</translation>
        </message>
    </context>
    <context>
        <name>EditorDialogs</name>
        <message>
            <source>Template JSON (*.json);;All files (*)</source>
            <translation>模板 JSON (*.json);;所有文件 (*)</translation>
        </message>
        <message>
            <source>Import a template</source>
            <translation>导入模板</translation>
        </message>
        <message>
            <source>Export the template</source>
            <translation>导出模板</translation>
        </message>
        <message>
            <source>Save template</source>
            <translation>保存模板</translation>
        </message>
        <message>
            <source>Save the template in your library as:</source>
            <translation>将模板保存到模板库，名称：</translation>
        </message>
        <message>
            <source>Delete the saved template “{name}”? This cannot be undone.</source>
            <translation>要删除已保存的模板“{name}”吗？此操作无法撤销。</translation>
        </message>
        <message>
            <source>Delete template</source>
            <translation>删除模板</translation>
        </message>
        <message>
            <source>Unapplied changes</source>
            <translation>未应用的更改</translation>
        </message>
        <message>
            <source>The template has changes that are not applied to the session yet.</source>
            <translation>模板有尚未应用到当前对话的更改。</translation>
        </message>
        <message>
            <source>A template called “{name}” is already saved. Replace it?</source>
            <translation>已存在名为“{name}”的模板。要替换它吗？</translation>
        </message>
        <message>
            <source>Replace template</source>
            <translation>替换模板</translation>
        </message>
    </context>
    <context>
        <name>Fault</name>
        <message>
            <source>line {line}: {path}: {message}</source>
            <translation>第 {line} 行：{path}：{message}</translation>
        </message>
        <message>
            <source>invalid JSON at line {line}, column {column}: {error}</source>
            <translation>JSON 无效（第 {line} 行，第 {column} 列）：{error}</translation>
        </message>
    </context>
    <context>
        <name>ImportancePicker</name>
        <message>
            <source>Always (true)</source>
            <translation>始终（true）</translation>
        </message>
        <message>
            <source>Never (false) — module disabled</source>
            <translation>从不（false）——模块已停用</translation>
        </message>
        <message>
            <source>{mark} {name} (unknown function)</source>
            <translation>{mark} {name}（未知函数）</translation>
        </message>
        <message>
            <source>When {name}</source>
            <translation>当 {name} 成立时</translation>
        </message>
        <message>
            <source>Always part of the prompt.</source>
            <translation>始终包含在提示词中。</translation>
        </message>
        <message>
            <source>Never part of the prompt (the module is disabled).</source>
            <translation>从不包含在提示词中（模块已停用）。</translation>
        </message>
        <message>
            <source>“{name}” is not a known importance function.</source>
            <translation>“{name}”不是已知的重要性函数。</translation>
        </message>
        <message>
            <source>Decided by {name} at each turn.</source>
            <translation>每轮由 {name} 决定。</translation>
        </message>
    </context>
    <context>
        <name>JsonTab</name>
        <message>
            <source>the JSON nests too deeply to be read (thousands of levels)</source>
            <translation>JSON 嵌套过深（上千层），无法读取</translation>
        </message>
        <message>
            <source>Template JSON</source>
            <translation>模板 JSON</translation>
        </message>
        <message>
            <source>This text is not applied: fix the problems marked above (the form shows the last valid version).</source>
            <translation>此文本尚未生效：请修正上方标出的问题（表单显示的是最后一个有效版本）。</translation>
        </message>
        <message numerus="yes">
            <source>%n problem(s) in the template; Apply is blocked until fixed.</source>
            <translation>
                <numerusform>模板中有 %n 个问题；修正前无法应用。</numerusform>
            </translation>
        </message>
        <message>
            <source>Valid. Edits here update the form as you type.</source>
            <translation>有效。在这里编辑会实时更新表单。</translation>
        </message>
    </context>
    <context>
        <name>KnownNames</name>
        <message>
            <source>The agent's name (passed by the agent; "Assistant" otherwise).</source>
            <translation>智能体的名称（由智能体传入；否则为“Assistant”）。</translation>
        </message>
        <message>
            <source>The conversation: the messages themselves when alone in a module, else lines.</source>
            <translation>对话内容：单独位于一个模块中时为消息本身，否则为逐行文本。</translation>
        </message>
        <message>
            <source>The local date and time, e.g. "Monday, 2025-09-01 14:30 CEST".</source>
            <translation>本地日期和时间，例如“Monday, 2025-09-01 14:30 CEST”。</translation>
        </message>
        <message>
            <source>The text of the current user message.</source>
            <translation>当前用户消息的文本。</translation>
        </message>
        <message>
            <source>Retrieved knowledge for this input (empty unless passed or registered).</source>
            <translation>为本次输入检索到的知识（未传入或注册时为空）。</translation>
        </message>
        <message>
            <source>Long-term memories recalled for this input (empty unless passed or registered).</source>
            <translation>为本次输入召回的长期记忆（未传入或注册时为空）。</translation>
        </message>
        <message>
            <source>Recent dialogue from the short-term memory, as "name: text" lines.</source>
            <translation>短期记忆中的近期对话，每行格式为“名称: 文本”。</translation>
        </message>
        <message>
            <source>The agent's system prompt (passed by the agent; empty otherwise).</source>
            <translation>智能体的系统提示词（由智能体传入；否则为空）。</translation>
        </message>
        <message>
            <source>Include the module when its variable content is not blank.</source>
            <translation>当模块的变量内容不为空时纳入该模块。</translation>
        </message>
        <message>
            <source>Include the module when its variable content shares a meaningful word with the input.</source>
            <translation>当模块的变量内容与输入有共同的有意义词语时纳入该模块。</translation>
        </message>
    </context>
    <context>
        <name>LanguageBox</name>
        <message>
            <source>System ({language})</source>
            <translation>跟随系统（{language}）</translation>
        </message>
        <message>
            <source>The language of the window</source>
            <translation>界面语言</translation>
        </message>
        <message>
            <source>Applies after restarting desktop_agent</source>
            <translation>重新启动 desktop_agent 后生效</translation>
        </message>
    </context>
    <context>
        <name>ModuleForm</name>
        <message>
            <source>Instructions and context for the model</source>
            <translation>给模型的指令和上下文</translation>
        </message>
        <message>
            <source>Spoken by the user (the module holding current_user_input usually is)</source>
            <translation>以用户身份发出（包含 current_user_input 的模块通常如此）</translation>
        </message>
        <message>
            <source>Spoken by the assistant</source>
            <translation>以助手身份发出</translation>
        </message>
        <message>
            <source>Unique name, e.g. persona</source>
            <translation>唯一名称，例如 persona</translation>
        </message>
        <message>
            <source>A note for the template's author; never sent</source>
            <translation>写给模板作者的备注，不会发送</translation>
        </message>
        <message>
            <source>Select a module on the left, or add one.</source>
            <translation>请在左侧选择一个模块，或添加一个。</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <source>Role</source>
            <translation>角色</translation>
        </message>
        <message>
            <source>Included</source>
            <translation>纳入条件</translation>
        </message>
        <message>
            <source>Note</source>
            <translation>备注</translation>
        </message>
        <message>
            <source>Segments</source>
            <translation>片段</translation>
        </message>
        <message>
            <source>Joined in order into the module's text; variables are filled in at each turn.</source>
            <translation>按顺序拼接成模块的文本；变量在每轮时填入。</translation>
        </message>
    </context>
    <context>
        <name>ModuleListModel</name>
        <message>
            <source>always</source>
            <translation>始终</translation>
        </message>
        <message>
            <source>disabled</source>
            <translation>已停用</translation>
        </message>
        <message>
            <source>when {name}</source>
            <translation>当 {name} 成立时</translation>
        </message>
        <message>
            <source>(no name)</source>
            <translation>（无名称）</translation>
        </message>
    </context>
    <context>
        <name>ModuleListPane</name>
        <message>
            <source>Add</source>
            <translation>添加</translation>
        </message>
        <message>
            <source>Add a module after the selected one</source>
            <translation>在所选模块后添加一个模块</translation>
        </message>
        <message>
            <source>Duplicate</source>
            <translation>复制</translation>
        </message>
        <message>
            <source>Copy the selected module</source>
            <translation>复制所选模块</translation>
        </message>
        <message>
            <source>Delete</source>
            <translation>删除</translation>
        </message>
        <message>
            <source>Delete the selected module</source>
            <translation>删除所选模块</translation>
        </message>
        <message>
            <source>Move up (earlier in the prompt)</source>
            <translation>上移（在提示词中更靠前）</translation>
        </message>
        <message>
            <source>Move down (later in the prompt)</source>
            <translation>下移（在提示词中更靠后）</translation>
        </message>
        <message>
            <source>Modules</source>
            <translation>模块</translation>
        </message>
        <message>
            <source>In prompt order. Drag to reorder; untick to disable.</source>
            <translation>按提示词顺序排列；拖动可排序，取消勾选即停用。</translation>
        </message>
        <message>
            <source>Template modules</source>
            <translation>模板模块</translation>
        </message>
    </context>
    <context>
        <name>NamePicker</name>
        <message>
            <source>{mark} {name} (unknown)</source>
            <translation>{mark} {name}（未知）</translation>
        </message>
        <message>
            <source>Not a known name: pick another.</source>
            <translation>不是已知的名称，请另选一个。</translation>
        </message>
    </context>
    <context>
        <name>ParametersPage</name>
        <message>
            <source>Server default</source>
            <translation>服务器默认</translation>
        </message>
        <message>
            <source>Minimal</source>
            <translation>最低</translation>
        </message>
        <message>
            <source>Low</source>
            <translation>低</translation>
        </message>
        <message>
            <source>Medium</source>
            <translation>中</translation>
        </message>
        <message>
            <source>High</source>
            <translation>高</translation>
        </message>
        <message>
            <source>The longest answer, in tokens (max_tokens)</source>
            <translation>回答的最大长度，以 token 计（max_tokens）</translation>
        </message>
        <message>
            <source>Nucleus sampling: only the most likely tokens up to this mass</source>
            <translation>核采样：只从累计概率达到此值的最可能 token 中选取</translation>
        </message>
        <message>
            <source>For reasoning models that take it (o-series, GPT-5, …)</source>
            <translation>适用于支持此参数的推理模型（o 系列、GPT-5 等）</translation>
        </message>
        <message>
            <source> tokens</source>
            <translation> token</translation>
        </message>
        <message>
            <source>How much the chat's context may take (the model's context length, or less): attached documents are checked against it before they are sent</source>
            <translation>对话上下文最多可占用的量（模型的上下文长度或更少）：附加的文档在发送前会按此检查</translation>
        </message>
        <message>
            <source>Show answers as they are written (streaming)</source>
            <translation>边生成边显示回答（流式输出）</translation>
        </message>
        <message>
            <source>Let the model title new chats (one small request)</source>
            <translation>让模型为新对话命名（一次小请求）</translation>
        </message>
        <message>
            <source>After the first answer; a title you gave is never replaced</source>
            <translation>在第一次回答之后进行；你设置的标题不会被替换</translation>
        </message>
        <message>
            <source>Max output tokens</source>
            <translation>最大输出 token 数</translation>
        </message>
        <message>
            <source>Top p</source>
            <translation>Top P</translation>
        </message>
        <message>
            <source>Reasoning effort</source>
            <translation>推理强度</translation>
        </message>
        <message>
            <source>Context budget</source>
            <translation>上下文预算</translation>
        </message>
        <message>
            <source>These are the defaults of every chat. A server that rejects a parameter says so in the chat; Retry then sends the message without it.</source>
            <translation>这些是所有对话的默认值。如果服务器拒绝某个参数，会在对话中提示；点击“重试”将不带该参数重新发送消息。</translation>
        </message>
    </context>
    <context>
        <name>PreviewController</name>
        <message>
            <source>The preview needs the application's event loop.</source>
            <translation>预览需要应用程序的事件循环。</translation>
        </message>
        <message>
            <source>The preview could not be built: {error}</source>
            <translation>无法生成预览：{error}</translation>
        </message>
    </context>
    <context>
        <name>PreviewPane</name>
        <message>
            <source>Sample message (default: the session's last one)</source>
            <translation>示例消息（默认：当前对话的最后一条）</translation>
        </message>
        <message>
            <source>Messages</source>
            <translation>消息</translation>
        </message>
        <message>
            <source>Prompt text</source>
            <translation>提示词文本</translation>
        </message>
        <message>
            <source>Preview not built yet.</source>
            <translation>尚未生成预览。</translation>
        </message>
        <message>
            <source>Preview</source>
            <translation>预览</translation>
        </message>
        <message numerus="yes">
            <source>%n message(s)</source>
            <translation>
                <numerusform>%n 条消息</numerusform>
            </translation>
        </message>
        <message>
            <source>{included} of {total} modules included</source>
            <translation>纳入 {included}/{total} 个模块</translation>
        </message>
        <message>
            <source>~{count} tokens (estimate)</source>
            <translation>约 {count} 个 token（估算）</translation>
        </message>
        <message>
            <source>Updating the preview…</source>
            <translation>正在更新预览…</translation>
        </message>
        <message>
            <source>{reason} The last preview is shown.</source>
            <translation>{reason}当前显示的是上一次的预览。</translation>
        </message>
        <message>
            <source>{verdict}
(engine: {reason})</source>
            <translation>{verdict}
（引擎：{reason}）</translation>
        </message>
        <message>
            <source>(empty)</source>
            <translation>（空）</translation>
        </message>
        <message>
            <source>Module</source>
            <translation>模块</translation>
        </message>
        <message>
            <source>Included · why</source>
            <translation>是否纳入 · 原因</translation>
        </message>
        <message>
            <source>Tokens</source>
            <translation>Token</translation>
        </message>
        <message>
            <source>No messages: every module is excluded or empty.</source>
            <translation>没有消息：所有模块都被排除或为空。</translation>
        </message>
        <message>
            <source>(no text)</source>
            <translation>（无文本）</translation>
        </message>
        <message>
            <source>included: shares words with your message</source>
            <translation>已纳入：与你的消息有共同词语</translation>
        </message>
        <message>
            <source>left out: no words in common with your message</source>
            <translation>未纳入：与你的消息没有共同词语</translation>
        </message>
        <message>
            <source>included: its variables have content</source>
            <translation>已纳入：其变量有内容</translation>
        </message>
        <message>
            <source>left out: its variables are empty</source>
            <translation>未纳入：其变量为空</translation>
        </message>
        <message>
            <source>included: {name} said yes</source>
            <translation>已纳入：{name} 返回“是”</translation>
        </message>
        <message>
            <source>included: {name} said no</source>
            <translation>已纳入：{name} 返回“否”</translation>
        </message>
        <message>
            <source>left out: {name} said yes</source>
            <translation>未纳入：{name} 返回“是”</translation>
        </message>
        <message>
            <source>left out: {name} said no</source>
            <translation>未纳入：{name} 返回“否”</translation>
        </message>
        <message>
            <source>included: always</source>
            <translation>已纳入：始终</translation>
        </message>
        <message>
            <source>left out: switched off (importance: never)</source>
            <translation>未纳入：已关闭（纳入条件：从不）</translation>
        </message>
        <message>
            <source>left out: an error — {error}</source>
            <translation>未纳入：出错——{error}</translation>
        </message>
        <message>
            <source>included: {reason}</source>
            <translation>已纳入：{reason}</translation>
        </message>
        <message>
            <source>left out: {reason}</source>
            <translation>未纳入：{reason}</translation>
        </message>
    </context>
    <context>
        <name>ProviderCatalog</name>
        <message>
            <source>{provider} runs on this computer: no API key needed.</source>
            <translation>{provider} 运行在本机上，无需 API 密钥。</translation>
        </message>
        <message>
            <source>Get a {provider} API key at {link}</source>
            <translation>在 {link} 获取 {provider} 的 API 密钥</translation>
        </message>
    </context>
    <context>
        <name>SegmentRow</name>
        <message>
            <source>&lt;b&gt;{number}.&lt;/b&gt; Text</source>
            <translation>&lt;b&gt;{number}.&lt;/b&gt; 文本</translation>
        </message>
        <message>
            <source>&lt;b&gt;{number}.&lt;/b&gt; Variable</source>
            <translation>&lt;b&gt;{number}.&lt;/b&gt; 变量</translation>
        </message>
        <message>
            <source>Move this segment up</source>
            <translation>上移此片段</translation>
        </message>
        <message>
            <source>Move this segment down</source>
            <translation>下移此片段</translation>
        </message>
        <message>
            <source>Remove this segment</source>
            <translation>移除此片段</translation>
        </message>
        <message>
            <source>Text inserted as is</source>
            <translation>按原样插入的文本</translation>
        </message>
        <message>
            <source>Text of segment {number}</source>
            <translation>第 {number} 个片段的文本</translation>
        </message>
        <message>
            <source>Variable of segment {number}</source>
            <translation>第 {number} 个片段的变量</translation>
        </message>
    </context>
    <context>
        <name>SegmentsEditor</name>
        <message>
            <source>Add text</source>
            <translation>添加文本</translation>
        </message>
        <message>
            <source>Add a segment of fixed text</source>
            <translation>添加一个固定文本片段</translation>
        </message>
        <message>
            <source>Add variable</source>
            <translation>添加变量</translation>
        </message>
        <message>
            <source>Add a segment filled in from a variable at each turn</source>
            <translation>添加一个每轮由变量填入的片段</translation>
        </message>
    </context>
    <context>
        <name>SettingsController</name>
        <message>
            <source>Settings could not be saved ({error}); they apply until you quit.</source>
            <translation>无法保存设置（{error}）；在退出前仍然有效。</translation>
        </message>
        <message>
            <source>Model list unavailable: {error}</source>
            <translation>无法获取模型列表：{error}</translation>
        </message>
    </context>
    <context>
        <name>SettingsDialog</name>
        <message>
            <source>Files &amp; network</source>
            <translation>文件与网络</translation>
        </message>
        <message>
            <source>Parameters</source>
            <translation>参数</translation>
        </message>
        <message>
            <source>Settings</source>
            <translation>设置</translation>
        </message>
        <message>
            <source>Fetching models…</source>
            <translation>正在获取模型…</translation>
        </message>
        <message>
            <source>No models listed.</source>
            <translation>没有列出任何模型。</translation>
        </message>
        <message>
            <source>1 model available.</source>
            <translation>有 1 个可用模型。</translation>
        </message>
        <message numerus="yes">
            <source>%n models available.</source>
            <translation>
                <numerusform>有 %n 个可用模型。</numerusform>
            </translation>
        </message>
        <message>
            <source>Saved endpoints; type a new name to add one</source>
            <translation>已保存的服务端点；输入新名称即可添加</translation>
        </message>
        <message>
            <source>Not needed for most local servers</source>
            <translation>大多数本地服务器不需要</translation>
        </message>
        <message>
            <source>Show</source>
            <translation>显示</translation>
        </message>
        <message>
            <source>Fetch the server's model list</source>
            <translation>获取服务器的模型列表</translation>
        </message>
        <message>
            <source>List this provider's models in the chat's model picker</source>
            <translation>在对话的模型选择器中列出此服务商的模型</translation>
        </message>
        <message>
            <source>Every saved provider that is listed is active at once: a chat can switch to any of their models in its header</source>
            <translation>所有列出的已保存服务商同时可用：对话可在标题栏切换到其中任意一个模型</translation>
        </message>
        <message>
            <source>Light</source>
            <translation>浅色</translation>
        </message>
        <message>
            <source>Dark</source>
            <translation>深色</translation>
        </message>
        <message>
            <source>System</source>
            <translation>跟随系统</translation>
        </message>
        <message>
            <source>System follows the desktop's light or dark setting</source>
            <translation>“跟随系统”会随桌面的浅色或深色设置变化</translation>
        </message>
        <message>
            <source>Load images from the web in messages without asking</source>
            <translation>直接加载消息中的网络图片，不再询问</translation>
        </message>
        <message>
            <source>Plan complex tasks (the chat shows the plan as a checklist)</source>
            <translation>为复杂任务制定计划（对话中以清单形式显示计划）</translation>
        </message>
        <message>
            <source>Gives the assistant plan tools; every request then carries ~2,000 more tokens</source>
            <translation>为助手提供计划工具；之后每次请求约多 2,000 个 token</translation>
        </message>
        <message>
            <source>Preset</source>
            <translation>预设</translation>
        </message>
        <message>
            <source>Base URL</source>
            <translation>基础 URL</translation>
        </message>
        <message>
            <source>API key</source>
            <translation>API 密钥</translation>
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
            <source>System prompt</source>
            <translation>系统提示词</translation>
        </message>
        <message>
            <source>Theme</source>
            <translation>主题</translation>
        </message>
        <message>
            <source>Language</source>
            <translation>语言</translation>
        </message>
        <message>
            <source>Appearance</source>
            <translation>外观</translation>
        </message>
        <message>
            <source>Hide</source>
            <translation>隐藏</translation>
        </message>
        <message>
            <source>{name} (default)</source>
            <translation>{name}（默认）</translation>
        </message>
        <message>
            <source>Saved providers, all active in the model picker: {names}.</source>
            <translation>已保存的服务商（均可在模型选择器中使用）：{names}。</translation>
        </message>
        <message>
            <source>Not listed: {names}.</source>
            <translation>未列出：{names}。</translation>
        </message>
        <message>
            <source>Tools</source>
            <translation>工具</translation>
        </message>
    </context>
    <context>
        <name>StackButton</name>
        <message>
            <source>{verb} {command} ({keys})</source>
            <translation>{verb}“{command}”（{keys}）</translation>
        </message>
    </context>
    <context>
        <name>TemplateEditorWindow</name>
        <message>
            <source>Applied: the next turn uses this template.</source>
            <translation>已应用：下一轮起使用此模板。</translation>
        </message>
        <message>
            <source>Context template</source>
            <translation>上下文模板</translation>
        </message>
        <message>
            <source>Module</source>
            <translation>模块</translation>
        </message>
        <message>
            <source>Paused until the problems are fixed.</source>
            <translation>问题修正前暂停预览。</translation>
        </message>
        <message>
            <source>Fix the problems shown in red before applying.</source>
            <translation>请先修正红色标出的问题，再应用。</translation>
        </message>
        <message>
            <source>Nothing imported. {error}</source>
            <translation>未导入任何内容。{error}</translation>
        </message>
        <message>
            <source>Imported {name}</source>
            <translation>已导入 {name}</translation>
        </message>
        <message>
            <source>Could not export to {path}: {error}</source>
            <translation>无法导出到 {path}：{error}</translation>
        </message>
        <message>
            <source>Exported to {path}</source>
            <translation>已导出到 {path}</translation>
        </message>
        <message>
            <source>Fix the problems before saving the template.</source>
            <translation>请先修正问题，再保存模板。</translation>
        </message>
        <message>
            <source>Could not save the template: {error}</source>
            <translation>无法保存模板：{error}</translation>
        </message>
        <message>
            <source>Saved as “{name}” in your templates.</source>
            <translation>已保存到你的模板，名称为“{name}”。</translation>
        </message>
        <message>
            <source>Nothing loaded. {error}</source>
            <translation>未载入任何内容。{error}</translation>
        </message>
        <message>
            <source>Loaded “{name}”</source>
            <translation>已载入“{name}”</translation>
        </message>
        <message>
            <source>Could not delete the template: {error}</source>
            <translation>无法删除模板：{error}</translation>
        </message>
        <message>
            <source>Deleted “{name}”.</source>
            <translation>已删除“{name}”。</translation>
        </message>
        <message numerus="yes">
            <source>{what}, with %n problem(s) flagged in red — fix them before applying.</source>
            <translation>
                <numerusform>{what}，有 %n 个问题以红色标出——请修正后再应用。</numerusform>
            </translation>
        </message>
        <message>
            <source>{what}. Apply to use it in the session.</source>
            <translation>{what}。点击“应用”即可在当前对话中使用。</translation>
        </message>
    </context>
    <context>
        <name>ToolsPage</name>
        <message>
            <source>MCP servers give the assistant more tools. Paste the “mcpServers” JSON of Claude Desktop, Cursor or LM Studio, or import an mcp.json file.</source>
            <translation>MCP 服务器可为助手提供更多工具。粘贴 Claude Desktop、Cursor 或 LM Studio 的“mcpServers” JSON，或导入 mcp.json 文件。</translation>
        </message>
        <message>
            <source>Added {names}.</source>
            <translation>已添加 {names}。</translation>
        </message>
        <message>
            <source>Cannot read {path}: {error}</source>
            <translation>无法读取 {path}：{error}</translation>
        </message>
        <message>
            <source>Start enabled servers when the app starts</source>
            <translation>应用启动时启动已启用的服务器</translation>
        </message>
        <message>
            <source>Trusted: run its tools without asking</source>
            <translation>受信任：运行其工具时无需询问</translation>
        </message>
        <message>
            <source>Edit JSON</source>
            <translation>编辑 JSON</translation>
        </message>
        <message>
            <source>Restart</source>
            <translation>重新启动</translation>
        </message>
        <message>
            <source>Remove</source>
            <translation>移除</translation>
        </message>
        <message>
            <source>Tools (switch off those the assistant should not use)</source>
            <translation>工具（关闭不希望助手使用的工具）</translation>
        </message>
        <message>
            <source>Add or update</source>
            <translation>添加或更新</translation>
        </message>
        <message>
            <source>Import mcp.json…</source>
            <translation>导入 mcp.json…</translation>
        </message>
        <message>
            <source>Checked: chats get its tools</source>
            <translation>勾选后，对话可使用其工具</translation>
        </message>
        <message>
            <source>No MCP server yet</source>
            <translation>还没有 MCP 服务器</translation>
        </message>
        <message>
            <source>Paste a configuration below to add one.</source>
            <translation>在下方粘贴配置即可添加。</translation>
        </message>
        <message>
            <source>Import an mcp.json file</source>
            <translation>导入 mcp.json 文件</translation>
        </message>
        <message>
            <source>Disabled</source>
            <translation>已停用</translation>
        </message>
        <message>
            <source>Disabled: chats do not get its tools.</source>
            <translation>已停用：对话无法使用其工具。</translation>
        </message>
        <message>
            <source>Not started: it starts when a chat first needs it.</source>
            <translation>未启动：将在对话首次需要时启动。</translation>
        </message>
        <message>
            <source>Failed to start. What it said:</source>
            <translation>启动失败。输出信息：</translation>
        </message>
        <message>
            <source>Failed to start.</source>
            <translation>启动失败。</translation>
        </message>
    </context>
    <context>
        <name>TrailingSpaceMarker</name>
        <message>
            <source>Spaces at the end of the line (inserted as is)</source>
            <translation>行尾空格（按原样插入）</translation>
        </message>
    </context>
</TS>

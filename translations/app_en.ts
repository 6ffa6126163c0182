<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
    <context>
        <name>ContextConfigError</name>
        <message numerus="yes">
            <source>Invalid context config in {source} (%n fault(s)):</source>
            <translation>
                <numerusform>Invalid context config in {source} (%n fault):</numerusform>
                <numerusform>Invalid context config in {source} (%n faults):</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Invalid context config (%n fault(s)):</source>
            <translation>
                <numerusform>Invalid context config (%n fault):</numerusform>
                <numerusform>Invalid context config (%n faults):</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>ImportReport</name>
        <message numerus="yes">
            <source>{title} [{id}, %n message(s)]{notes}</source>
            <translation>
                <numerusform>{title} [{id}, %n message]{notes}</numerusform>
                <numerusform>{title} [{id}, %n messages]{notes}</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>McpServerStatus</name>
        <message numerus="yes">
            <source>Connected · %n tool(s)</source>
            <translation>
                <numerusform>Connected · %n tool</numerusform>
                <numerusform>Connected · %n tools</numerusform>
            </translation>
        </message>
    </context>
</TS>

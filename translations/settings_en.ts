<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
    <context>
        <name>DataPage</name>
        <message numerus="yes">
            <source>%n of these chats are here already.</source>
            <translation>
                <numerusform>%n of these chats is here already.</numerusform>
                <numerusform>%n of these chats are here already.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>EditorChrome</name>
        <message numerus="yes">
            <source>⚠ %n problems, Apply is blocked — {where}: {message} (and {more} more; hover for all)</source>
            <translation>
                <numerusform>⚠ %n problem, Apply is blocked — {where}: {message} (and {more} more; hover for all)</numerusform>
                <numerusform>⚠ %n problems, Apply is blocked — {where}: {message} (and {more} more; hover for all)</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>JsonTab</name>
        <message numerus="yes">
            <source>%n problem(s) in the template; Apply is blocked until fixed.</source>
            <translation>
                <numerusform>%n problem in the template; Apply is blocked until fixed.</numerusform>
                <numerusform>%n problems in the template; Apply is blocked until fixed.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>PreviewPane</name>
        <message numerus="yes">
            <source>%n message(s)</source>
            <translation>
                <numerusform>%n message</numerusform>
                <numerusform>%n messages</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>SettingsDialog</name>
        <message numerus="yes">
            <source>%n models available.</source>
            <translation>
                <numerusform>%n model available.</numerusform>
                <numerusform>%n models available.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>TemplateEditorWindow</name>
        <message numerus="yes">
            <source>{what}, with %n problem(s) flagged in red — fix them before applying.</source>
            <translation>
                <numerusform>{what}, with %n problem flagged in red — fix it before applying.</numerusform>
                <numerusform>{what}, with %n problems flagged in red — fix them before applying.</numerusform>
            </translation>
        </message>
    </context>
</TS>

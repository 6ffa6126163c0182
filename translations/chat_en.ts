<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
    <context>
        <name>AllowedToolsChip</name>
        <message numerus="yes">
            <source>%n tools allowed</source>
            <translation>
                <numerusform>%n tool allowed</numerusform>
                <numerusform>%n tools allowed</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>DocumentChip</name>
        <message numerus="yes">
            <source>%n pages</source>
            <translation>
                <numerusform>%n page</numerusform>
                <numerusform>%n pages</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n page images</source>
            <translation>
                <numerusform>%n page image</numerusform>
                <numerusform>%n page images</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>DocumentPartView</name>
        <message numerus="yes">
            <source>%n pages · {size} · sent to the model as text</source>
            <translation>
                <numerusform>%n page · {size} · sent to the model as text</numerusform>
                <numerusform>%n pages · {size} · sent to the model as text</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>ShellOutputView</name>
        <message numerus="yes">
            <source>Show all %n lines</source>
            <translation>
                <numerusform>Show %n line</numerusform>
                <numerusform>Show all %n lines</numerusform>
            </translation>
        </message>
    </context>
</TS>

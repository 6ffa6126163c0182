<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
    <context>
        <name>SessionListModel</name>
        <message numerus="yes">
            <source>%n message(s)</source>
            <translation>
                <numerusform>%n message</numerusform>
                <numerusform>%n messages</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n minute(s) ago</source>
            <translation>
                <numerusform>%n minute ago</numerusform>
                <numerusform>%n minutes ago</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n hour(s) ago</source>
            <translation>
                <numerusform>%n hour ago</numerusform>
                <numerusform>%n hours ago</numerusform>
            </translation>
        </message>
    </context>
</TS>

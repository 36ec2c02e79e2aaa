Content-Type: audio/x-scpls
<br />
[Playlist]
NumberOfEntries=2
File3 = http://three.example/stream
Title3=Third
File1=http://one.example/stream
Title1=First
File10=http://ten.example/stream
Length1=-1
Version=2

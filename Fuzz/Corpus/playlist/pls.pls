[playlist]
NumberOfEntries=2
File1=http://a.example/stream
Title1=A
File2=https://b.example/s.mp3
Version=2

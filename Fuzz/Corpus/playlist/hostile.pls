[playlist]
File1=file:///etc/passwd
File2=/etc/shadow
File3=../../x

filedesc://IA-001102.arc 0.0.0.0 19960923142103 text/plain 75
1 0 Alexa Internet
URL IP-address Archive-date Content-type Archive-length

http://www.dryswamp.edu:80/index.html 127.10.100.2 19961104142103 text/html 210
HTTP/1.0 200 Document follows
Date: Mon, 04 Nov 1996 14:21:06 GMT
Server: NCSA/1.4.1
Content-type: text/html
Last-modified: Sat,10 Aug 1996 22:33:11 GMT
Content-length: 30

<HTML>Hello World!!!</HTML>



dns:www.archive.org 207.241.224.2 20080430204825 text/dns 56
20080430204825
www.archive.org.	589	IN	A	207.241.229.39


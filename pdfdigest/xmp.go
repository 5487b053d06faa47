package pdfdigest

import "bytes"

// XMP packets' bounds.
var (
	xpacketBegin = []byte("<?xpacket begin")
	xpacketEnd   = []byte("<?xpacket end")
	xmpmetaBegin = []byte("<x:xmpmeta")
	xmpmetaEnd   = []byte("</x:xmpmeta>")
)

// maskXMP returns data with each XMP packet in it replaced by "<?xpacket?>",
// and each x:xmpmeta element outside one by "<x:xmpmeta/>". A packet
// without its end is kept.
func maskXMP(data []byte) []byte {
	data = maskBetween(data, xpacketBegin, xpacketEnd, []byte("?>"), []byte("<?xpacket?>"))
	return maskBetween(data, xmpmetaBegin, xmpmetaEnd, nil, []byte("<x:xmpmeta/>"))
}

// maskBetween replaces with mark each run of data from begin to end and,
// if close is not nil, to the first close after end.
func maskBetween(data, begin, end, close, mark []byte) []byte {
	if !bytes.Contains(data, begin) {
		return data
	}
	var out []byte
	for {
		i := bytes.Index(data, begin)
		if i < 0 {
			break
		}
		j := bytes.Index(data[i:], end)
		if j < 0 {
			break
		}
		stop := i + j + len(end)
		if close != nil {
			k := bytes.Index(data[stop:], close)
			if k < 0 {
				break
			}
			stop += k + len(close)
		}
		out = append(append(out, data[:i]...), mark...)
		data = data[stop:]
	}
	return append(out, data...)
}

package pdfdigest

import "fmt"

// LZWDecode's codes (ISO 32000-1 §7.4.4.2): 9 to 12 bits, most
// significant first; 256 clears the table, 257 ends the data.
const (
	lzwClear    = 256
	lzwEOD      = 257
	lzwFirst    = 258
	lzwMaxWidth = 12
)

// lzwDecode returns LZWDecode data decoded, at most limit bytes of it
// (errPastCap past them). early is /EarlyChange: 1 (the default) widens
// the codes one code early, as TIFF's LZW does, 0 as GIF's does (which
// compress/lzw reads, and only it). Data that ends without an
// end-of-data code ends there, as readers have it.
func lzwDecode(data []byte, early, limit int) ([]byte, error) {
	var (
		prefix [1 << lzwMaxWidth]uint16
		suffix [1 << lzwMaxWidth]byte
		length [1 << lzwMaxWidth]int
		out    []byte
		acc    uint32
		nacc   int
	)
	for c := range 256 {
		suffix[c], length[c] = byte(c), 1
	}
	width, next, prev := 9, lzwFirst, -1
	for pos := 0; ; {
		for nacc < width && pos < len(data) {
			acc = acc<<8 | uint32(data[pos])
			nacc += 8
			pos++
		}
		if nacc < width {
			return out, nil
		}
		code := int(acc>>(nacc-width)) & (1<<width - 1)
		nacc -= width
		switch {
		case code == lzwClear:
			width, next, prev = 9, lzwFirst, -1
			continue
		case code == lzwEOD:
			return out, nil
		case prev < 0 && code > 255, code > next, code == next && prev < 0:
			return nil, fmt.Errorf("LZWDecode: code %d where the table ends at %d", code, next)
		}
		// The entry read, or, for the code about to be made (KwKwK),
		// the previous entry and its first byte.
		entry := code
		if code == next {
			entry = prev
		}
		n := length[entry]
		if len(out)+n+1 > limit {
			return nil, errPastCap
		}
		start := len(out)
		out = append(out, make([]byte, n)...)
		for e, i := entry, start+n-1; i >= start; i-- {
			out[i] = suffix[e]
			e = int(prefix[e])
		}
		if code == next {
			out = append(out, out[start])
		}
		if prev >= 0 && next < 1<<lzwMaxWidth {
			prefix[next], suffix[next], length[next] = uint16(prev), out[start], length[prev]+1
			next++
			if next+early >= 1<<width && width < lzwMaxWidth {
				width++
			}
		}
		prev = code
	}
}

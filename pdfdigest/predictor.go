package pdfdigest

import "fmt"

// predictor is a FlateDecode or LZWDecode stream's /DecodeParms (ISO
// 32000-1 §7.4.4.4, Table 8): /Predictor kind (1 none, 2 TIFF, 10 to 15
// PNG), and the rows it works on: /Columns samples of /Colors components
// of /BitsPerComponent bits.
type predictor struct {
	kind, colors, bpc, columns int
}

// Bounds of a predictor's parameters: ISO 32000-1 gives none for
// /Columns and /Colors; these keep a row's length in an int.
const (
	maxColumns = 1 << 24
	maxColors  = 256
)

// newPredictor returns the predictor of parameters p (a dictionary, or
// null: none), or an error naming the parameter it does not decode.
func newPredictor(p value) (predictor, error) {
	pr := predictor{kind: 1, colors: 1, bpc: 8, columns: 1}
	for _, f := range []struct {
		key   string
		to    *int
		valid func(int) bool
	}{
		{"Predictor", &pr.kind, func(k int) bool { return k == 1 || k == 2 || k >= 10 && k <= 15 }},
		{"Colors", &pr.colors, func(c int) bool { return c >= 1 && c <= maxColors }},
		{"BitsPerComponent", &pr.bpc, func(b int) bool { return b == 1 || b == 2 || b == 4 || b == 8 || b == 16 }},
		{"Columns", &pr.columns, func(c int) bool { return c >= 1 && c <= maxColumns }},
	} {
		v, ok := p.get(f.key)
		if !ok {
			continue
		}
		n, ok := v.integer()
		if !ok || !f.valid(n) {
			return pr, fmt.Errorf("/%s %s not decoded", f.key, excerpt(v.raw))
		}
		*f.to = n
	}
	return pr, nil
}

// rowLen returns the bytes of a row, and bpp those of a pixel, rounded
// up (the PNG predictors' distance to the left neighbour: one for pixels
// of fewer than 8 bits, two for those of 12, as poppler, pdf.js and
// pdfcpu have it).
func (pr predictor) rowLen() (rowLen, bpp int) {
	return (pr.columns*pr.colors*pr.bpc + 7) / 8, (pr.colors*pr.bpc + 7) / 8
}

// decode returns data with the predictor undone, in place. A last row
// shorter than the others is decoded as far as it goes, as readers do.
func (pr predictor) decode(data []byte) ([]byte, error) {
	switch {
	case pr.kind == 1:
		return data, nil
	case pr.kind == 2:
		rowLen, _ := pr.rowLen()
		for row := 0; row < len(data); row += rowLen {
			pr.tiffRow(data[row:min(row+rowLen, len(data))])
		}
		return data, nil
	}
	rowLen, bpp := pr.rowLen()
	out := data[:0]                              // each row written over its filter byte and itself
	prev := make([]byte, min(rowLen, len(data))) // a row longer than the data is cut short
	for row := 0; row < len(data); row += rowLen + 1 {
		end := min(row+1+rowLen, len(data))
		filter, cur := data[row], data[row+1:end]
		start := len(out)
		for i, x := range cur {
			var a, c byte
			if i >= bpp {
				a, c = out[start+i-bpp], prev[i-bpp]
			}
			b := prev[i]
			switch filter {
			case 0:
			case 1:
				x += a
			case 2:
				x += b
			case 3:
				x += byte((int(a) + int(b)) / 2)
			case 4:
				x += paeth(a, b, c)
			default:
				return nil, fmt.Errorf("PNG predictor: row filter %d at byte %d, want 0 to 4", filter, row)
			}
			out = append(out, x)
		}
		copy(prev, out[start:])
	}
	return out, nil
}

// tiffRow undoes TIFF predictor 2 in a row: each component the sum, mod
// 2^bpc, of its difference and the same component of the sample before.
func (pr predictor) tiffRow(row []byte) {
	switch pr.bpc {
	case 8:
		for i := pr.colors; i < len(row); i++ {
			row[i] += row[i-pr.colors]
		}
	case 16:
		for i := 2 * pr.colors; i+1 < len(row); i += 2 {
			v := (uint16(row[i])<<8 | uint16(row[i+1])) + (uint16(row[i-2*pr.colors])<<8 | uint16(row[i-2*pr.colors+1]))
			row[i], row[i+1] = byte(v>>8), byte(v)
		}
	default: // 1, 2 or 4 bits, most significant first
		bits, mask := pr.bpc, byte(1<<pr.bpc-1)
		get := func(k int) byte { return row[k*bits/8] >> (8 - bits - k*bits%8) & mask }
		set := func(k int, v byte) {
			shift := 8 - bits - k*bits%8
			row[k*bits/8] = row[k*bits/8]&^(mask<<shift) | (v&mask)<<shift
		}
		samples := min(pr.columns*pr.colors, len(row)*8/bits)
		for k := pr.colors; k < samples; k++ {
			set(k, get(k)+get(k-pr.colors))
		}
	}
}

// paeth is the PNG Paeth predictor of a pixel from its left (a), upper
// (b) and upper left (c) neighbours.
func paeth(a, b, c byte) byte {
	p := int(a) + int(b) - int(c)
	pa, pb, pc := abs(p-int(a)), abs(p-int(b)), abs(p-int(c))
	switch {
	case pa <= pb && pa <= pc:
		return a
	case pb <= pc:
		return b
	}
	return c
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

package pdfdigest

import (
	"bytes"
	"compress/zlib"
	"encoding/ascii85"
	"errors"
	"fmt"
	"io"
)

// The stream filters Sum decodes (ISO 32000-1 §7.4), in an object stream
// and a metadata stream, where it reads what they hold: FlateDecode and
// LZWDecode, with their /DecodeParms predictors, ASCIIHexDecode and
// ASCII85Decode, alone or in a chain. The other filters are of images
// (DCTDecode, JBIG2Decode...) or rare (RunLengthDecode): a stream under
// one is hashed as its bytes, and SumResult says so.

// errPastCap is the error of a filter whose output would pass the
// inflate cap.
var errPastCap = errors.New("past the inflate cap")

// decode returns a stream's data decoded by its filters, each one's
// output taken from n.budget, or why it was not: a filter or a parameter
// it does not decode, data that does not decode, or the cap reached. A
// stream without a filter is its data.
func (n *normalizer) decode(d value, data []byte) ([]byte, string) {
	fv, filtered := d.get("Filter")
	pv, parametered := d.get("DecodeParms")
	var filters, parms []value
	switch {
	case !filtered:
	case fv.kind == arrayValue:
		filters = fv.items
	case fv.kind == scalarValue:
		filters = []value{fv}
	default:
		return nil, "its /Filter is no name"
	}
	switch {
	case !parametered:
	case pv.kind == arrayValue:
		parms = pv.items
	default:
		parms = []value{pv}
	}
	for i, f := range filters {
		var p value
		if i < len(parms) {
			p = parms[i]
		}
		if p.kind == refValue {
			// Its dictionary is elsewhere in the file, which Sum does
			// not look up: read as none, a predictor would be left in
			// the data, silently.
			return nil, fmt.Sprintf("/DecodeParms %s by reference not decoded", excerpt(p.raw))
		}
		if n.budget <= 0 {
			return nil, n.capReason()
		}
		out, err := n.filter(f, p, data)
		if errors.Is(err, errPastCap) {
			n.budget = 0
			return nil, n.capReason()
		}
		if err != nil {
			return nil, err.Error()
		}
		if len(out) > n.budget {
			n.budget = 0
			return nil, n.capReason()
		}
		n.budget -= len(out)
		data = out
	}
	return data, ""
}

// capReason says that the inflate cap was reached.
func (n *normalizer) capReason() string {
	return fmt.Sprintf("past the inflate cap of %d bytes", n.inflateCap)
}

// filter returns data decoded by the filter named f with parameters p
// (a dictionary, or null), at most n.budget bytes of it.
func (n *normalizer) filter(f, p value, data []byte) ([]byte, error) {
	if f.kind != scalarValue || len(f.raw) == 0 || f.raw[0] != '/' {
		return nil, fmt.Errorf("filter %s is no name", excerpt(f.raw))
	}
	name := nameText(f.raw)
	switch name {
	case "FlateDecode", "Fl":
		pr, err := newPredictor(p)
		if err != nil {
			return nil, err
		}
		zr, err := zlib.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("FlateDecode: %w", err)
		}
		out, err := io.ReadAll(io.LimitReader(zr, int64(n.budget)+1))
		if err != nil {
			return nil, fmt.Errorf("FlateDecode: %w", err)
		}
		if len(out) > n.budget {
			return nil, errPastCap
		}
		return pr.decode(out)
	case "LZWDecode", "LZW":
		pr, err := newPredictor(p)
		if err != nil {
			return nil, err
		}
		early := 1
		if e, ok := p.get("EarlyChange"); ok {
			if early, ok = e.integer(); !ok || early > 1 {
				return nil, fmt.Errorf("/EarlyChange %s not decoded", excerpt(e.raw))
			}
		}
		out, err := lzwDecode(data, early, n.budget)
		if err != nil {
			return nil, err
		}
		return pr.decode(out)
	case "ASCIIHexDecode", "AHx":
		return asciiHexDecode(data)
	case "ASCII85Decode", "A85":
		return ascii85Decode(data, n.budget)
	case "Crypt":
		// A stream's own crypt filter: /Identity alone is no
		// encryption (the others are the file's: encrypt.go).
		if nm, ok := p.get("Name"); !ok || nm.nameIs("Identity") {
			return data, nil
		}
		return nil, fmt.Errorf("filter /Crypt of another crypt filter than /Identity not decoded")
	}
	return nil, fmt.Errorf("filter %s not decoded", excerpt(f.raw))
}

// asciiHexDecode decodes ASCIIHexDecode data: hex digits, white space
// between them, up to > (or the end); an odd last digit is followed by 0.
func asciiHexDecode(data []byte) ([]byte, error) {
	out := make([]byte, 0, len(data)/2)
	var hi int = -1
	for i, c := range data {
		if isSpace(c) {
			continue
		}
		if c == '>' {
			break
		}
		d := hexDigit(c)
		if d < 0 {
			return nil, fmt.Errorf("ASCIIHexDecode: %q at byte %d is no hex digit", string(c), i)
		}
		if hi < 0 {
			hi = d
			continue
		}
		out = append(out, byte(hi<<4|d))
		hi = -1
	}
	if hi >= 0 {
		out = append(out, byte(hi<<4))
	}
	return out, nil
}

// ascii85Decode decodes ASCII85Decode data, from an optional <~ to ~>
// (or the end), if it holds at most limit bytes.
func ascii85Decode(data []byte, limit int) ([]byte, error) {
	data = bytes.TrimLeft(data, " \t\r\n\f\x00")
	data = bytes.TrimPrefix(data, []byte("<~"))
	if i := bytes.Index(data, []byte("~>")); i >= 0 {
		data = data[:i]
	}
	size := 4*(len(data)/5+1) + 4*bytes.Count(data, []byte("z"))
	if size > limit+8 {
		return nil, errPastCap
	}
	out := make([]byte, size)
	nd, _, err := ascii85.Decode(out, data, true)
	if err != nil {
		return nil, fmt.Errorf("ASCII85Decode: %w", err)
	}
	return out[:nd], nil
}

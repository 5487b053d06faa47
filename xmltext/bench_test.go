package xmltext_test

import (
	"io"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/xmltext"
)

// BenchmarkEscape escapes 1 MB of text: ASCII prose with an escape every
// 60 bytes or so, as data-oriented XML has, and the same words in
// accented Latin and CJK, where every character from 0x80 up is decoded.
func BenchmarkEscape(b *testing.B) {
	for _, c := range []struct{ name, words string }{
		{"ascii", "alpha bravo charlie & delta echo <foxtrot> golf hotel india juliet kilo "},
		{"latin", "àlpha brävo chârlie & délta écho <föxtrot> gölf hôtel índia jüliet kïlo "},
		{"cjk", "阿尔法 布拉沃 查理 & 德尔塔 回声 <狐步> 高尔夫 酒店 印度 朱丽叶 "},
	} {
		s := strings.Repeat(c.words, (1<<20)/len(c.words))
		for _, ctx := range []struct {
			name string
			ctx  xmltext.Context
		}{{"text", xmltext.Text}, {"attr", xmltext.Attr}} {
			e := xmltext.NewEscaper(ctx.ctx, xmltext.Options{Replace: true})
			w := io.Discard.(io.StringWriter)
			b.Run(c.name+"-"+ctx.name, func(b *testing.B) {
				b.SetBytes(int64(len(s)))
				b.ReportAllocs()
				for b.Loop() {
					if err := e.Escape(w, s); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

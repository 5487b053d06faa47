package spec

import (
	"strings"
	"testing"
	"time"
)

// TestColumnsInCharacters: columns count characters (runes), as an editor
// shows them, wherever the package reports a position: tokens, the end of
// the token before a missing one, a NUL byte, and a rune inside a literal.
func TestColumnsInCharacters(t *testing.T) {
	for name, tc := range map[string]struct{ src, want string }{
		"token after CJK": {"Create Sentinel s Using http://a.example Monitor keywords {日本語} $",
			"f.ssl:1:65: illegal character '$'"},
		"missing after CJK": {"Create Sentinel s Using http://a.example Monitor keywords {日本語",
			"f.ssl:1:63: expected , or }, found end of file"},
		"NUL after CJK": {"# 日本語\x00\n",
			"f.ssl:1:6: not text: byte 0x00 (a sentinel file is UTF-8 text)"},
		"selector rune": {"Create Sentinel s Using http://a.example\n\tMonitor value In css \"日本 (\" changes",
			"f.ssl:2:27: invalid css selector \"日本 (\": unclosed ("},
		"date after CJK": {"Create Sentinel s Using http://a.example # 日本語\n\tMonitor keywords {日本語} From 01/01/2003",
			"f.ssl:2:30: From 01/01/2003 has passed (01/01/2003 00:00 UTC is before now, 06/01/2003 12:00 UTC): write a later time, or From Now to start at once"},
	} {
		t.Run(name, func(t *testing.T) {
			f, err := Parse("f.ssl", []byte(tc.src))
			if err == nil {
				_, err = NewChecker(time.Date(2003, 6, 1, 12, 0, 0, 0, time.UTC)).CheckFile(f)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error:\n%v\nwant\n%s", err, tc.want)
			}
		})
	}
}

func TestScannerColumnsInCharacters(t *testing.T) {
	src := "Create Sentinel é1\n  Using “日本” x # ü\nMonitor"
	want := []struct{ line, col int }{{1, 1}, {1, 8}, {1, 17}, {2, 3}, {2, 9}, {2, 14}, {2, 16}, {3, 1}}
	var sc Scanner
	sc.Init([]byte(src), nil)
	for i, w := range want {
		pos, tok, lit := sc.Scan()
		if pos.Line != w.line || pos.Column != w.col {
			t.Errorf("token %d (%v %q): %d:%d, want %d:%d", i, tok, lit, pos.Line, pos.Column, w.line, w.col)
		}
		if src[pos.Offset:pos.Offset+len(lit)] != lit {
			t.Errorf("token %d: offset %d does not start %q", i, pos.Offset, lit)
		}
	}
}

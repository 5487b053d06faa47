package spec

import (
	"errors"
	"testing"
)

// TestURLSpace: a URL written with a space in it, a page's, a site's, a
// scope's or a webhook's, is an error at the URL (line:col; a site's
// at its word site, a contact's at its kind, as their other errors) naming
// the space and where it is (one in a host name was already); it was taken, the page's space sent
// percent-encoded or, in a query, as it was, and the webhook's kept.
// One that only begins or ends with spaces inside its quotes is trimmed,
// as before.
func TestURLSpace(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line, col int
		want      string
	}{
		{"path", "Create Sentinel s\nUsing \"http://a.example/my page\"", 2, 7,
			`invalid URL "http://a.example/my page": a space after "http://a.example/my" (a URL holds none: write %20 for a space in its path or query)`},
		{"query", "Create Sentinel s Using \"a.example/find?q=a b\"", 1, 25,
			`invalid URL "a.example/find?q=a b": a space after "a.example/find?q=a" (a URL holds none: write %20 for a space in its path or query)`},
		{"no-break space", "Create Sentinel s Using \"http://a.example/a\u00a0b\"", 1, 25,
			`invalid URL "http://a.example/a\u00a0b": a space (U+00A0) after "http://a.example/a" (a URL holds none: write %20 for a space in its path or query)`},
		{"host", "Create Sentinel s Using \"http://a b.example/\"", 1, 25,
			`invalid URL "http://a b.example/": invalid character " " in host name`},
		{"webhook password hidden", "Create Sentinel s Using http://a.example/\nNotify By webhook \"http://u:pw@h.example/a b\"", 2, 11,
			`invalid webhook URL "http://u:xxxxx@h.example/a b": a space after "http://u:xxxxx@h.example/a" (a URL holds none: write %20 for a space in its path or query)`},
		{"site", "Create Sentinel s Using site \"http://a.example/my docs/\"", 1, 25,
			`invalid URL "http://a.example/my docs/": a space after "http://a.example/my" (a URL holds none: write %20 for a space in its path or query)`},
		{"scope", "Create Sentinel s Using site http://a.example/ scope \"a.example/my docs/\"", 1, 54,
			`site scope: invalid URL "a.example/my docs/": a space after "a.example/my" (a URL holds none: write %20 for a space in its path or query)`},
		{"webhook", "Create Sentinel s Using http://a.example/\nNotify By webhook \"https://hooks.example/a b\"", 2, 11,
			`invalid webhook URL "https://hooks.example/a b": a space after "https://hooks.example/a" (a URL holds none: write %20 for a space in its path or query)`},
		{"trimmed", "Create Sentinel s Using \" http://a.example/a \"", 0, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewChecker(date(2026, 6, 1, 12, 0)).Check(mustParse(t, tc.src).Sentinels[0])
			if tc.want == "" {
				if err != nil {
					t.Errorf("%v, want no error", err)
				}
				return
			}
			var list ErrorList
			if !errors.As(err, &list) || len(list) != 1 || list[0].Pos.Line != tc.line || list[0].Pos.Column != tc.col || list[0].Msg != tc.want {
				t.Errorf("%v (%+v)\nwant %d:%d: %s", err, list, tc.line, tc.col, tc.want)
			}
		})
	}
}

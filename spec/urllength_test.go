package spec

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// longURL returns an http URL of n bytes.
func longURL(n int) string {
	const prefix = "http://a.example/"
	return prefix + strings.Repeat("a", n-len(prefix))
}

// TestURLLength: a URL longer than MaxURL, RFC 9110's 8 000 octets, a
// page's, a site's, a scope's, a webhook's or a chat service's, is an error at the URL
// (line:col; a site's at its word site, a contact's at its kind, as their
// other errors) naming its length and the limit, not the URL; one of
// 30 MB passed. One of MaxURL bytes is taken.
func TestURLLength(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line, col int
		want      string
	}{
		{"page at the limit", "Create Sentinel s Using " + longURL(MaxURL), 0, 0, ""},
		{"page", "Create Sentinel s\nUsing " + longURL(MaxURL+1), 2, 7, "URL of 8001 bytes: want at most 8000"},
		{"page of 30 MB", "Create Sentinel s Using \"" + longURL(30<<20) + "\"", 1, 25, "URL of 31457280 bytes: want at most 8000"},
		{"page, a second", "Create Sentinel s Using http://b.example/ OR " + longURL(9000), 1, 46, "URL of 9000 bytes: want at most 8000"},
		{"site", "Create Sentinel s Using site " + longURL(MaxURL+1), 1, 25, "URL of 8001 bytes: want at most 8000"},
		{"scope", "Create Sentinel s Using site http://a.example/ scope " + longURL(MaxURL+1), 1, 54, "site scope: URL of 8001 bytes: want at most 8000"},
		{"webhook", "Create Sentinel s Using http://a.example/\nNotify By webhook " + longURL(MaxURL+1), 2, 11, "webhook URL of 8001 bytes: want at most 8000"},
		{"chat", "Create Sentinel s Using http://a.example/\nNotify By ntfy" + longURL(MaxURL + 1)[len("http"):], 2, 11, "chat URL of 8001 bytes: want at most 8000"},
		{"chat at the limit", "Create Sentinel s Using http://a.example/\nNotify By ntfy" + longURL(MaxURL)[len("http"):], 0, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewChecker(date(2026, 6, 1, 12, 0)).Check(mustParse(t, tc.src).Sentinels[0])
			if tc.want == "" {
				if err != nil {
					t.Errorf("%.200v, want no error", err)
				}
				return
			}
			var list ErrorList
			if !errors.As(err, &list) || len(list) != 1 || list[0].Pos.Line != tc.line || list[0].Pos.Column != tc.col || list[0].Msg != tc.want {
				t.Errorf("%.300v\nwant %d:%d: %s", err, tc.line, tc.col, tc.want)
			}
		})
	}
}

// TestURLLengthJSON: the JSON form, which the API takes as a sentinel's,
// is held to the same limit, at the URL's field (a site's at its site, as
// its other errors); a sentinel stored before
// the limit loads as it is.
func TestURLLengthJSON(t *testing.T) {
	long := longURL(MaxURL + 1)
	for _, tc := range []struct{ name, doc, want string }{
		{"page", `{"name":"s","using":{"url":"` + long + `"}}`, "using.url: URL of 8001 bytes: want at most 8000"},
		{"site", `{"name":"s","using":{"site":{"url":"` + long + `"}}}`, "using.site: URL of 8001 bytes: want at most 8000"},
		{"scope", `{"name":"s","using":{"site":{"url":"http://a.example/","scope":["` + long + `"]}}}`, "using.site.scope[0]: site scope: URL of 8001 bytes: want at most 8000"},
		{"chat", `{"name":"s","using":{"url":"http://a.example/"},"notify":[{"chat":"ntfy` + long[len("http"):] + `"}]}`, "notify[0].chat: chat URL of 8001 bytes: want at most 8000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeSentinel([]byte(tc.doc))
			var fe FieldErrors
			if !errors.As(err, &fe) || len(fe) != 1 || fe[0].Path+": "+fe[0].Msg != tc.want {
				t.Errorf("%.300v\nwant %s", err, tc.want)
			}
		})
	}
	var stored Checked
	doc := `{"name":"s","using":{"url":"` + long + `"},"urls":["` + long + `"]}`
	if err := json.Unmarshal([]byte(doc), &stored); err != nil {
		t.Errorf("a stored sentinel with a long URL does not load: %.300v", err)
	}
}

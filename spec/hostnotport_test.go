package spec

import (
	"strings"
	"testing"
)

// TestHostNotPort: a host and, after its colon, something that is not a
// port, written without a scheme ("intranet:abc"), was reported as the
// unknown scheme intranet; it is reported as what was most likely done,
// at the URL's line and column. A scheme written with "://" (ftp://x) or
// one of the known schemes without it (mailto:) is still a scheme.
func TestHostNotPort(t *testing.T) {
	for in, want := range map[string]string{
		"intranet:abc":         `invalid URL "intranet:abc": no http:// or https:// before the host, and abc is not a port`,
		"Intranet:abc/x?y=1":   `invalid URL "Intranet:abc/x?y=1": no http:// or https:// before the host, and abc is not a port`,
		"wiki:main#top":        `invalid URL "wiki:main#top": no http:// or https:// before the host, and main is not a port`,
		"a.example:abc/x":      `invalid URL "a.example:abc/x": no http:// or https:// before the host, and abc is not a port`,
		"ftp://x":              `invalid URL "ftp://x": scheme ftp: only http and https pages can be watched`,
		"intranet://abc":       `invalid URL "intranet://abc": scheme intranet: only http and https pages can be watched`,
		"mailto:a@b.example":   `invalid URL "mailto:a@b.example": scheme mailto: only http and https pages can be watched`,
		"tel:+15551234567":     `invalid URL "tel:+15551234567": scheme tel: only http and https pages can be watched`,
		"ftp:files.example/x":  `invalid URL "ftp:files.example/x": scheme ftp: only http and https pages can be watched`,
		"intranet:/abc":        `invalid URL "intranet:/abc": scheme intranet: only http and https pages can be watched`,
		"http://a.example:abc": `invalid URL "http://a.example:abc": invalid port ":abc" after host`,
	} {
		if got, err := NormalizeURL(in); err == nil || err.Error() != want {
			t.Errorf("NormalizeURL(%q) = %q, %v; want error %q", in, got, err, want)
		}
	}
	src := "Create Sentinel a\n  Using http://b.example/ OR intranet:abc"
	_, err := NewChecker(date(2026, 1, 1, 0, 0)).CheckFile(mustParse(t, src))
	want := `test.ssl:2:30: invalid URL "intranet:abc": no http:// or https:// before the host, and abc is not a port`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%q: %v, want %q", src, err, want)
	}
}

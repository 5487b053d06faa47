package vigil_test

import (
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

func TestCanonicalURL(t *testing.T) {
	tests := map[string]struct{ in, want, code string }{
		"already canonical":        {in: "http://example.com/a/b?x=1", want: "http://example.com/a/b?x=1"},
		"case":                     {in: "HTTP://Example.COM/Path", want: "http://example.com/Path"},
		"default http port":        {in: "http://example.com:80/", want: "http://example.com/"},
		"default https":            {in: "https://example.com:443/x", want: "https://example.com/x"},
		"other port kept":          {in: "https://example.com:8443/x", want: "https://example.com:8443/x"},
		"empty path":               {in: "http://example.com", want: "http://example.com/"},
		"fragment":                 {in: "http://example.com/a#top", want: "http://example.com/a"},
		"dot segments":             {in: "http://example.com/a/./b/../c", want: "http://example.com/a/c"},
		"dot dot past root":        {in: "http://example.com/../../a", want: "http://example.com/a"},
		"trailing dot dot":         {in: "http://example.com/a/b/..", want: "http://example.com/a/"},
		"trailing slash":           {in: "http://example.com/a/", want: "http://example.com/a/"},
		"double slash kept":        {in: "http://example.com/a//b", want: "http://example.com/a//b"},
		"query order kept":         {in: "http://example.com/?b=2&a=1", want: "http://example.com/?b=2&a=1"},
		"empty query":              {in: "http://example.com/?", want: "http://example.com/"},
		"trailing host dot":        {in: "http://example.com./", want: "http://example.com/"},
		"percent hex":              {in: "http://example.com/%7euser/%c3%a9", want: "http://example.com/~user/%C3%A9"},
		"query percent unreserved": {in: "http://example.com/?a=%7e&b=%7E&c=%41%2d%2E%5f", want: "http://example.com/?a=~&b=~&c=A-._"},
		"query percent hex case":   {in: "http://example.com/?q=%c3%a9%2f", want: "http://example.com/?q=%C3%A9%2F"},
		"query reserved kept":      {in: "http://example.com/?a=%26b%3d%2B&c=x+y&d=%2f", want: "http://example.com/?a=%26b%3D%2B&c=x+y&d=%2F"},
		"query percent not hex":    {in: "http://example.com/?a=%zz&b=%7", want: "http://example.com/?a=%zz&b=%7"},
		"path reserved kept":       {in: "http://example.com/a%2fb/%3f", want: "http://example.com/a%2Fb/%3F"},
		"percent dots":             {in: "http://example.com/a/%2e/b/%2E%2e/c/.%2e", want: "http://example.com/a/"},
		"ipv6":                     {in: "http://[::1]:80/", want: "http://[::1]/"},
		"ipv6 port":                {in: "http://[2001:DB8::1]:8080/", want: "http://[2001:db8::1]:8080/"},
		"spaces trimmed":           {in: "  http://example.com/  ", want: "http://example.com/"},
		"ftp":                      {in: "ftp://example.com/", code: vigil.EINVALID},
		"relative":                 {in: "/a/b", code: vigil.EINVALID},
		"no host":                  {in: "http:///a", code: vigil.EINVALID},
		"mailto":                   {in: "mailto:a@example.com", code: vigil.EINVALID},
		"unicode host":             {in: "http://bücher.example/", code: vigil.EINVALID},
		"punycode host":            {in: "http://xn--bcher-kva.example/", want: "http://xn--bcher-kva.example/"},
		// What DNS takes is spec.CheckHostName's to judge, which the
		// callers call first (see CanonicalURL).
		"empty label left to the caller": {in: "http://a..example/", want: "http://a..example/"},
		"long label left to the caller":  {in: "http://" + strings.Repeat("x", 64) + ".example/", want: "http://" + strings.Repeat("x", 64) + ".example/"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := vigil.CanonicalURL(tt.in)
			if tt.code != "" {
				if vigil.ErrorCode(err) != tt.code {
					t.Fatalf("CanonicalURL(%q) = %q, %v; want code %s", tt.in, got, err, tt.code)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("CanonicalURL(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
			again, err := vigil.CanonicalURL(got)
			if err != nil || again != got {
				t.Fatalf("not idempotent: %q -> %q, %v", got, again, err)
			}
		})
	}
}

func TestClassifyLink(t *testing.T) {
	tests := map[string]struct {
		src, dst string
		want     vigil.LinkType
	}{
		"fragment same doc": {"http://a.com/x", "http://a.com/x#top", vigil.LinkInterior},
		"same doc":          {"http://a.com/x", "http://a.com/x", vigil.LinkInterior},
		"same host":         {"http://a.com/x", "http://a.com/y", vigil.LinkLocal},
		"host case":         {"http://a.com/x", "HTTP://A.COM:80/y", vigil.LinkLocal},
		"other host":        {"http://a.com/x", "http://b.com/x", vigil.LinkGlobal},
		"subdomain":         {"http://a.com/x", "http://www.a.com/x", vigil.LinkGlobal},
		"other port":        {"http://a.com/x", "http://a.com:8080/x", vigil.LinkGlobal},
	}
	for name, tt := range tests {
		if got := vigil.ClassifyLink(tt.src, tt.dst); got != tt.want {
			t.Errorf("%s: ClassifyLink(%q, %q) = %s, want %s", name, tt.src, tt.dst, got, tt.want)
		}
	}
}

// FuzzCanonicalURL checks that canonicalisation never panics, is
// idempotent, and keeps the host that HostOf reports.
func FuzzCanonicalURL(f *testing.F) {
	for _, s := range []string{"http://example.com/a/../b?x#y", "HTTPS://[::1]:443/%7e", "http://a.b./c//d/./e/..", "http://x/?", "ftp://x/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := vigil.CanonicalURL(s)
		if err != nil {
			return
		}
		again, err := vigil.CanonicalURL(c)
		if err != nil || again != c {
			t.Fatalf("CanonicalURL(%q) = %q, then %q, %v", s, c, again, err)
		}
		if vigil.HostOf(c) == "" {
			t.Fatalf("canonical %q has no host", c)
		}
	})
}

// TestCanonicalURLIdempotent: the canonical form of a canonical URL is
// itself. A space before a fragment ("?q= #top") was kept in the query and
// trimmed by a second call; "]:0" gave a URL without a host.
func TestCanonicalURLIdempotent(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{"http://h/p?q= #f", "http://h/p?q=%20"},
		{"http://h/p?q=a b&r=\u00a0x", "http://h/p?q=a%20b&r=%C2%A0x"},
		{"http://h/p?q=\u0085x \u00a0#f", "http://h/p?q=%C2%85x%20%C2%A0"},
		{"http://h/p?a=1&b=%20", "http://h/p?a=1&b=%20"},
		{"HTTP://]:0", ""},
	} {
		got, err := vigil.CanonicalURL(tc.raw)
		if tc.want == "" {
			if err == nil {
				t.Errorf("CanonicalURL(%q) = %q, want an error", tc.raw, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("CanonicalURL(%q) = %q, %v; want %q", tc.raw, got, err, tc.want)
			continue
		}
		if again, err := vigil.CanonicalURL(got); err != nil || again != got {
			t.Errorf("CanonicalURL(%q) = %q, %v; want it unchanged", got, again, err)
		}
	}
}

// TestCanonicalURLMessages: a URL written without its scheme is told so,
// whatever url.Parse made of it ("127.0.0.1:8080/docs" does not parse: a
// colon in its first segment); it was "invalid url", which said nothing
// of what to write.
func TestCanonicalURLMessages(t *testing.T) {
	for in, want := range map[string]string{
		"127.0.0.1:8080/docs": `url "127.0.0.1:8080/docs": scheme must be http or https`,
		"example.org/docs":    `url "example.org/docs": scheme must be http or https`,
		"http://[::1/":        `invalid url "http://[::1/"`,
	} {
		if _, err := vigil.CanonicalURL(in); vigil.ErrorMessage(err) != want {
			t.Errorf("CanonicalURL(%q): %v, want %q", in, err, want)
		}
	}
}

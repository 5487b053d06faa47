package intent

import (
	"slices"
	"testing"

	"github.com/vigil-web/vigil/treediff"
)

func TestUnsignedURL(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"unsigned", "https://cdn.example/x.png?w=200", "https://cdn.example/x.png?w=200"},
		{"no query", "https://cdn.example/x.png", "https://cdn.example/x.png"},
		{"aws sigv4", "https://b.s3.amazonaws.com/x.png?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AK%2F2024&X-Amz-Date=20240101T000000Z&X-Amz-Expires=900&X-Amz-SignedHeaders=host&X-Amz-Signature=abc", "https://b.s3.amazonaws.com/x.png"},
		{"aws sigv4 lower case, other parameter kept", "/x.png?w=200&x-amz-signature=abc&x-amz-date=1", "/x.png?w=200"},
		{"google v4", "https://storage.googleapis.com/b/x.png?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Signature=ff&v=2", "https://storage.googleapis.com/b/x.png?v=2"},
		{"cloudfront", "https://d1.cloudfront.net/x.png?Expires=1700000000&Signature=a~b&Key-Pair-Id=K2", "https://d1.cloudfront.net/x.png"},
		{"cloudfront policy", "https://d1.cloudfront.net/x.png?Policy=eyJ&Signature=a~b&Key-Pair-Id=K2", "https://d1.cloudfront.net/x.png"},
		{"expires without a signature", "/x.png?expires=2024", "/x.png?expires=2024"},
		{"google v2", "/x.png?GoogleAccessId=a%40b&Expires=1&Signature=s", "/x.png"},
		{"azure sas", "https://a.blob.core.windows.net/c/x.png?sv=2022-11-02&se=2024-01-01T00%3A00Z&sr=b&sp=r&sig=abc%3D&w=3", "https://a.blob.core.windows.net/c/x.png?w=3"},
		{"sas names without a sig", "/x.png?sp=1&se=2", "/x.png?sp=1&se=2"},
		{"fragment kept", "/x.svg?X-Amz-Signature=1#icon", "/x.svg#icon"},
		{"aws v2", "https://b.s3.amazonaws.com/x.png?AWSAccessKeyId=AK&Expires=1700000000&Signature=s%3D&x-amz-security-token=t", "https://b.s3.amazonaws.com/x.png"},
		{"x-amz names without a signature", "/x.png?x-amz-date=1&w=2", "/x.png?x-amz-date=1&w=2"},
		{"x-goog names without a signature", "/x.png?X-Goog-Date=1&X-Goog-Expires=900", "/x.png?X-Goog-Date=1&X-Goog-Expires=900"},
		{"x-goog names with an aws signature", "/x.png?X-Goog-Date=1&X-Amz-Signature=s", "/x.png?X-Goog-Date=1"},
		{"signature without a key", "/doc?signature=jane&expires=2030&policy=gdpr", "/doc?signature=jane&expires=2030&policy=gdpr"},
		{"cloudfront keeps an ordinary name", "https://d1.cloudfront.net/x.png?Signature=s&Key-Pair-Id=K2&Expires=1&GoogleAccessId=g&AWSAccessKeyId=a", "https://d1.cloudfront.net/x.png?GoogleAccessId=g&AWSAccessKeyId=a"},
		{"aws v2 keeps policy", "/x?AWSAccessKeyId=a&Expires=1&Signature=s&Policy=p", "/x?Policy=p"},
		{"aws v2 without expires", "/x?AWSAccessKeyId=a&Signature=s", "/x?AWSAccessKeyId=a&Signature=s"},
		{"cloudfront without expires or policy", "/x?Key-Pair-Id=k&Signature=s", "/x?Key-Pair-Id=k&Signature=s"},
		{"google v2 keeps policy", "/x?GoogleAccessId=g&Expires=1&Signature=s&Policy=p", "/x?Policy=p"},
		{"sig without sv", "/search?sig=abc&sp=1&se=2&st=3&sr=4", "/search?sig=abc&sp=1&se=2&st=3&sr=4"},
		{"sig and sv without an expiry", "/x?sig=abc&sv=2022-11-02&sp=r", "/x?sig=abc&sv=2022-11-02&sp=r"},
		{"azure sas with a stored policy", "/x?sv=2022-11-02&si=pol&sr=b&sig=abc&page=2", "/x?page=2"},
		{"azure sas keeps signature", "/x?sv=2022-11-02&se=1&sig=abc&Signature=mine&Expires=3", "/x?Signature=mine&Expires=3"},
	} {
		if got := unsignedURL(tc.in); got != tc.want {
			t.Errorf("%s: unsignedURL(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}

// TestSignedImageURL: an image whose URL differs only in its signing
// parameters, new at every fetch, is the same image for any change and
// all images, with the tree delta the monitor computes; a change of its
// path or of another parameter is a change.
func TestSignedImageURL(t *testing.T) {
	const (
		s1 = "X-Amz-Algorithm=AWS4-HMAC-SHA256&amp;X-Amz-Date=20240101T000000Z&amp;X-Amz-Signature=aaa"
		s2 = "X-Amz-Algorithm=AWS4-HMAC-SHA256&amp;X-Amz-Date=20240101T001500Z&amp;X-Amz-Signature=bbb"
		c1 = "Expires=1700000000&amp;Signature=one&amp;Key-Pair-Id=K2"
		c2 = "Expires=1700000900&amp;Signature=two&amp;Key-Pair-Id=K2"
		a1 = "sv=2022-11-02&amp;se=2024-01-01T00%3A00Z&amp;sp=r&amp;sig=x1"
		a2 = "sv=2022-11-02&amp;se=2024-01-01T00%3A15Z&amp;sp=r&amp;sig=x2"
	)
	doc := func(body string) string {
		return "<html><body><p>Cameras</p>" + body + "</body></html>"
	}
	for _, tc := range []struct {
		name, old, new string
		changed        bool // any change and all images
	}{
		{"img src", `<img src="https://cdn.example/x.png?` + s1 + `" alt="X">`, `<img src="https://cdn.example/x.png?` + s2 + `" alt="X">`, false},
		{"img src, cloudfront", `<img src="https://cdn.example/x.png?` + c1 + `" alt="X">`, `<img src="https://cdn.example/x.png?` + c2 + `" alt="X">`, false},
		{"img src, azure", `<img src="https://a.blob.core.windows.net/x.png?` + a1 + `" alt="X">`, `<img src="https://a.blob.core.windows.net/x.png?` + a2 + `" alt="X">`, false},
		{"img srcset", `<img srcset="https://cdn.example/x.png?` + s1 + ` 1x" alt="X">`, `<img srcset="https://cdn.example/x.png?` + s2 + ` 1x" alt="X">`, false},
		{"img data-src", `<img src="data:image/gif;base64,R0lG" data-src="https://cdn.example/x.png?` + s1 + `" alt="X">`, `<img src="data:image/gif;base64,R0lG" data-src="https://cdn.example/x.png?` + s2 + `" alt="X">`, false},
		{"relative img src", `<img src="/x.png?` + s1 + `" alt="X">`, `<img src="/x.png?` + s2 + `" alt="X">`, false},
		{"path changed", `<img src="https://cdn.example/x.png?` + s1 + `" alt="X">`, `<img src="https://cdn.example/y.png?` + s2 + `" alt="X">`, true},
		{"other parameter changed", `<img src="https://cdn.example/x.png?w=1&amp;` + s1 + `" alt="X">`, `<img src="https://cdn.example/x.png?w=2&amp;` + s2 + `" alt="X">`, true},
	} {
		a, b := parseDoc(t, doc(tc.old)), parseDoc(t, doc(tc.new))
		d, err := treediff.Diff(a, b, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, clause := range []string{"any change", "all images"} {
			if clause == "any change" && (tc.name == "img srcset" || tc.name == "img data-src") {
				continue // srcset and data-* are not content
			}
			p := NewPair(a, b, d, nil)
			p.OldURL, p.NewURL = "https://shop.example/", "https://shop.example/"
			r, err := p.Evaluate(monitor(t, clause))
			if err != nil {
				t.Fatal(err)
			}
			if r.Matched != tc.changed {
				t.Errorf("%s, %s: matched %v, changes %+v; want matched %v", tc.name, clause, r.Matched, r.AllChanges(), tc.changed)
			}
			if tc.name == "path changed" && clause == "any change" {
				var got []string
				for _, c := range r.AllChanges() {
					old, new := c.Texts()
					got = append(got, old+" → "+new)
				}
				want := []string{"https://cdn.example/x.png?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20240101T000000Z&X-Amz-Signature=aaa → https://cdn.example/y.png?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20240101T001500Z&X-Amz-Signature=bbb"}
				if !slices.Equal(got, want) {
					t.Errorf("%s: changes %q, want the URLs as written %q", tc.name, got, want)
				}
			}
		}
	}
}

// TestSignedImageAltChanged: an image whose alternative text changed, its
// URL signed anew as at every fetch, shows the two texts, as an unsigned
// image does, not the two signatures.
func TestSignedImageAltChanged(t *testing.T) {
	doc := func(sig, alt string) string {
		return `<html><body><p>Boots</p><img src="https://cdn.example.com/a.jpg?X-Amz-Signature=` + sig + `&amp;X-Amz-Date=` + sig + `" alt="` + alt + `"></body></html>`
	}
	a, b := parseDoc(t, doc("111", "Red boots")), parseDoc(t, doc("222", "Blue boots"))
	d, err := treediff.Diff(a, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPair(a, b, d, nil)
	p.OldURL, p.NewURL = "https://shop.example/", "https://shop.example/"
	r, err := p.Evaluate(monitor(t, "all images"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range r.AllChanges() {
		old, new := c.Texts()
		got = append(got, old+" → "+new)
	}
	want := []string{"Red boots → Blue boots (https://cdn.example.com/a.jpg?X-Amz-Signature=222&X-Amz-Date=222)"}
	if !slices.Equal(got, want) {
		t.Errorf("all images: %q, want %q", got, want)
	}
}

// TestSignedLinkURL: a link whose target differs only in its signing
// parameters, new at every fetch (a signed download link), is the same
// link for any change and all links; a change of its path, of another
// parameter or of its text is a change, reported with the URLs as the
// page has them.
func TestSignedLinkURL(t *testing.T) {
	const (
		s1 = "X-Amz-Algorithm=AWS4-HMAC-SHA256&amp;X-Amz-Date=20240101T000000Z&amp;X-Amz-Signature=aaa"
		s2 = "X-Amz-Algorithm=AWS4-HMAC-SHA256&amp;X-Amz-Date=20240101T001500Z&amp;X-Amz-Signature=bbb"
		c1 = "Expires=1700000000&amp;Signature=one&amp;Key-Pair-Id=K2"
		c2 = "Expires=1700000900&amp;Signature=two&amp;Key-Pair-Id=K2"
		a1 = "sv=2022-11-02&amp;se=2024-01-01T00%3A00Z&amp;sp=r&amp;sig=x1"
		a2 = "sv=2022-11-02&amp;se=2024-01-01T00%3A15Z&amp;sp=r&amp;sig=x2"
	)
	doc := func(body string) string {
		return "<html><body><p>Downloads</p><p>" + body + "</p><p>Terms</p></body></html>"
	}
	for _, tc := range []struct {
		name, old, new string
		changed        bool       // any change and all links
		want           [][]string // by clause (any change, all links), when set: the changes as shown
	}{
		{name: "aws", old: `<a href="https://b.s3.amazonaws.com/r.pdf?` + s1 + `">Report</a>`, new: `<a href="https://b.s3.amazonaws.com/r.pdf?` + s2 + `">Report</a>`},
		{name: "cloudfront", old: `<a href="https://d1.cloudfront.net/r.pdf?` + c1 + `">Report</a>`, new: `<a href="https://d1.cloudfront.net/r.pdf?` + c2 + `">Report</a>`},
		{name: "azure", old: `<a href="https://a.blob.core.windows.net/c/r.pdf?` + a1 + `">Report</a>`, new: `<a href="https://a.blob.core.windows.net/c/r.pdf?` + a2 + `">Report</a>`},
		{name: "relative", old: `<a href="/r.pdf?` + s1 + `">Report</a>`, new: `<a href="/r.pdf?` + s2 + `">Report</a>`},
		{name: "area", old: `<map name="m"><area href="/r.pdf?` + s1 + `" alt="Report"></map>`, new: `<map name="m"><area href="/r.pdf?` + s2 + `" alt="Report"></map>`},
		{
			name: "path changed", changed: true,
			old: `<a href="https://cdn.example/r1.pdf?` + s1 + `">Report</a>`, new: `<a href="https://cdn.example/r2.pdf?` + s2 + `">Report</a>`,
			want: [][]string{
				{"https://cdn.example/r1.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20240101T000000Z&X-Amz-Signature=aaa → https://cdn.example/r2.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20240101T001500Z&X-Amz-Signature=bbb"},
				{"https://cdn.example/r1.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20240101T000000Z&X-Amz-Signature=aaa → https://cdn.example/r2.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20240101T001500Z&X-Amz-Signature=bbb"},
			},
		},
		{name: "other parameter changed", changed: true, old: `<a href="/r.pdf?v=1&amp;` + s1 + `">Report</a>`, new: `<a href="/r.pdf?v=2&amp;` + s2 + `">Report</a>`},
		{
			name: "text changed", changed: true,
			old: `<a href="/r.pdf?` + s1 + `">Report</a>`, new: `<a href="/r.pdf?` + s2 + `">Annual report</a>`,
			want: [][]string{
				{"Report → Annual report"},
				{"Report → Annual report (https://shop.example/r.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20240101T001500Z&X-Amz-Signature=bbb)"},
			},
		},
	} {
		a, b := parseDoc(t, doc(tc.old)), parseDoc(t, doc(tc.new))
		d, err := treediff.Diff(a, b, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, clause := range []string{"any change", "all links"} {
			p := NewPair(a, b, d, nil)
			p.OldURL, p.NewURL = "https://shop.example/", "https://shop.example/"
			r, err := p.Evaluate(monitor(t, clause))
			if err != nil {
				t.Fatal(err)
			}
			if r.Matched != tc.changed {
				t.Errorf("%s, %s: matched %v, changes %+v; want matched %v", tc.name, clause, r.Matched, r.AllChanges(), tc.changed)
			}
			if tc.want == nil {
				continue
			}
			var got []string
			for _, c := range r.AllChanges() {
				old, new := c.Texts()
				got = append(got, old+" → "+new)
			}
			if !slices.Equal(got, tc.want[i]) {
				t.Errorf("%s, %s: changes %q, want %q", tc.name, clause, got, tc.want[i])
			}
		}
	}
}

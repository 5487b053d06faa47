package intent

import (
	"slices"
	"strings"
	"testing"
)

// TestLinksResolved: links and image sources are compared as they resolve
// against the page's address and its <base href>: a link written relative
// and then absolute is the same link (it was reported as updated), and a
// link that leads elsewhere is still a change.
func TestLinksResolved(t *testing.T) {
	const page = "https://shop.example/cameras/index.html"
	doc := func(head, body string) string {
		return "<html><head>" + head + "</head><body><p>Cameras</p>" + body + "</body></html>"
	}
	for _, tc := range []struct {
		name, old, new, clause string
		changed                bool
	}{
		// A template's content is inert: a link there is none of the
		// page's, as the crawl and the stored links have it.
		{"a link added in a template", doc("", `<a href="/a.html">A</a>`), doc("", `<a href="/a.html">A</a><template><a href="/t.html">T</a></template>`), "all links", false},
		{"relative to absolute", doc("", `<a href="/a.html">A</a>`), doc("", `<a href="https://shop.example/a.html">A</a>`), "all links", false},
		{"dot segments", doc("", `<a href="x/../b.html">B</a>`), doc("", `<a href="b.html">B</a>`), "all links", false},
		{"base element", doc(`<base href="https://cdn.example/img/">`, `<img src="p.png" alt="P">`), doc("", `<img src="https://cdn.example/img/p.png" alt="P">`), "all images", false},
		{"another target", doc("", `<a href="/a.html">A</a>`), doc("", `<a href="https://other.example/a.html">A</a>`), "all links", true},
		{"another path", doc("", `<a href="a.html">A</a>`), doc("", `<a href="/a.html">A</a>`), "all links", true},
		{"mailto kept", doc("", `<a href="mailto:x@shop.example">M</a>`), doc("", `<a href="mailto:y@shop.example">M</a>`), "all links", true},
		// A host spelt in Unicode, percent-encoded or in punycode is one
		// host: the spellings were three links, a page that changed its
		// spelling a link deleted and one inserted.
		{"Unicode host", doc("", `<a href="http://bücher.example/a">A</a>`), doc("", `<a href="http://xn--bcher-kva.example/a">A</a>`), "all links", false},
		{"percent-encoded host", doc("", `<a href="http://b%C3%BCcher.example/a">A</a>`), doc("", `<a href="http://BÜCHER.example/a">A</a>`), "all links", false},
		{"Unicode image host", doc("", `<img src="http://bücher.example/p.png" alt="P">`), doc("", `<img src="http://xn--bcher-kva.example/p.png" alt="P">`), "all images", false},
		{"another Unicode host", doc("", `<a href="http://bücher.example/a">A</a>`), doc("", `<a href="http://büchern.example/a">A</a>`), "all links", true},
		// A host in upper case, or with its scheme's default port written
		// out, is the host: those were links deleted and inserted.
		{"host in upper case", doc("", `<a href="https://Other.EXAMPLE/a">A</a>`), doc("", `<a href="https://other.example/a">A</a>`), "all links", false},
		{"default port", doc("", `<a href="http://other.example:80/a">A</a>`), doc("", `<a href="http://other.example/a">A</a>`), "all links", false},
		{"default https port", doc("", `<img src="https://cdn.example:443/p.png" alt="P">`), doc("", `<img src="https://cdn.example/p.png" alt="P">`), "all images", false},
		{"IPv6 default port", doc("", `<a href="http://[2001:DB8::1]:80/a">A</a>`), doc("", `<a href="http://[2001:db8::1]/a">A</a>`), "all links", false},
		{"another port", doc("", `<a href="http://other.example:8080/a">A</a>`), doc("", `<a href="http://other.example/a">A</a>`), "all links", true},
		{"path case kept", doc("", `<a href="https://other.example/A">A</a>`), doc("", `<a href="https://other.example/a">A</a>`), "all links", true},
		// A host with a trailing dot (a DNS absolute name) is the host,
		// as the fetcher keys it (spec.HostKey): those were links
		// deleted and inserted.
		{"trailing dot", doc("", `<a href="http://other.example./a">A</a>`), doc("", `<a href="http://other.example/a">A</a>`), "all links", false},
		{"trailing dot and default port", doc("", `<a href="https://Other.Example.:443/a">A</a>`), doc("", `<a href="https://other.example/a">A</a>`), "all links", false},
		{"trailing dot image", doc("", `<img src="http://cdn.example./p.png" alt="P">`), doc("", `<img src="http://cdn.example/p.png" alt="P">`), "all images", false},
		{"Unicode trailing dot", doc("", `<a href="http://bücher.example./a">A</a>`), doc("", `<a href="http://xn--bcher-kva.example/a">A</a>`), "all links", false},
		{"trailing dot, another port", doc("", `<a href="http://other.example.:8080/a">A</a>`), doc("", `<a href="http://other.example/a">A</a>`), "all links", true},
		// A link to a host DNS refuses (spec.CheckHostName) is what the
		// page says, and a change of it is reported: no fetch follows it
		// (the crawl and the stored links leave it out).
		{"to a host DNS refuses", doc("", `<a href="http://other.example/a">A</a>`), doc("", `<a href="http://other..example/a">A</a>`), "all links", true},
		// An empty path is the root's (RFC 3986, 6.2.3): a site's home
		// linked with and without its slash is one link.
		{"empty path", doc("", `<a href="https://other.example">A</a>`), doc("", `<a href="https://other.example/">A</a>`), "all links", false},
		{"empty path, a query", doc("", `<a href="https://other.example?q=1">A</a>`), doc("", `<a href="https://other.example/?q=1">A</a>`), "all links", false},
		{"empty path image", doc("", `<img src="https://cdn.example:443" alt="P">`), doc("", `<img src="https://cdn.example/" alt="P">`), "all images", false},
		// Percent-encoding is normalised as vigil.CanonicalURL does it
		// (RFC 3986, 6.2.2): an unreserved character encoded or not, in
		// the path or the query, hex digits in either case, is one link;
		// a reserved one encoded is another.
		{"tilde encoded", doc("", `<a href="https://other.example/%7Euser/">U</a>`), doc("", `<a href="https://other.example/~user/">U</a>`), "all links", false},
		{"tilde encoded in lower case", doc("", `<a href="/%7euser/">U</a>`), doc("", `<a href="/%7Euser/">U</a>`), "all links", false},
		{"letters encoded", doc("", `<a href="/%61bout">U</a>`), doc("", `<a href="/about">U</a>`), "all links", false},
		{"query tilde encoded", doc("", `<a href="/s?q=a%7eb">U</a>`), doc("", `<a href="/s?q=a~b">U</a>`), "all links", false},
		{"hex case of a reserved character", doc("", `<a href="/s?q=a%2fb">U</a>`), doc("", `<a href="/s?q=a%2Fb">U</a>`), "all links", false},
		{"image path encoded", doc("", `<img src="/img/%7Ep.png" alt="P">`), doc("", `<img src="/img/~p.png" alt="P">`), "all images", false},
		{"reserved character encoded", doc("", `<a href="/s?q=a%2Fb">U</a>`), doc("", `<a href="/s?q=a/b">U</a>`), "all links", true},
		{"ampersand encoded", doc("", `<a href="/s?q=a%26b">U</a>`), doc("", `<a href="/s?q=a&amp;b">U</a>`), "all links", true},
		{"underscore Unicode host", doc("", `<a href="http://my_host.bücher.example/a">A</a>`), doc("", `<a href="http://my_host.xn--bcher-kva.example/a">A</a>`), "all links", false},
	} {
		p := NewPair(parseDoc(t, tc.old), parseDoc(t, tc.new), nil, nil)
		p.OldURL, p.NewURL = page, page
		r, err := p.Evaluate(monitor(t, tc.clause))
		if err != nil {
			t.Fatal(err)
		}
		if r.Matched != tc.changed {
			t.Errorf("%s: matched %v, want %v: %+v", tc.name, r.Matched, tc.changed, r.AllChanges())
		}
	}
	// Without the page's address, links are compared as written.
	r := evalClause(t, doc("", `<a href="/a.html">A</a>`), doc("", `<a href="https://shop.example/a.html">A</a>`), "all links")
	if !r.Matched {
		t.Error("without an address, a relative and an absolute link were taken as one")
	}
}

// TestAnyChangeShowsURLsResolved: a change record of any change names a
// changed image source or link target by the URL it resolves to (against
// the page's address and its <base href>), as the records of images and
// links do, and as Texts shows it to a reader (the notifications): it
// named it as the page wrote it, "img/a.png", which leads nowhere from a
// message. Other attributes are shown as written, and so is a URL
// without the page's address; a data: URL is cut as any long text is.
func TestAnyChangeShowsURLsResolved(t *testing.T) {
	const page = "https://shop.example/cameras/index.html"
	doc := func(head, body string) string {
		return "<html><head>" + head + "</head><body><p>Cameras</p>" + body + "</body></html>"
	}
	long := strings.Repeat("QUJD", 5000)
	for _, tc := range []struct {
		name, page, old, new string
		wantOld, wantNew     string
	}{
		{"image source", page, doc("", `<img src="img/a.png" alt="A">`), doc("", `<img src="img/b.png" alt="A">`),
			"https://shop.example/cameras/img/a.png", "https://shop.example/cameras/img/b.png"},
		{"base href", page, doc(`<base href="HTTPS://CDN.Example">`, `<img src="a.png" alt="A">`), doc(`<base href="HTTPS://CDN.Example">`, `<img src="b.png" alt="A">`),
			"https://cdn.example/a.png", "https://cdn.example/b.png"},
		{"link target", page, doc("", `<a href="/a.html">A</a>`), doc("", `<a href="/b.html">A</a>`),
			"https://shop.example/a.html", "https://shop.example/b.html"},
		{"another attribute", page, doc("", `<img src="a.png" alt="img/a">`), doc("", `<img src="a.png" alt="img/b">`),
			"img/a", "img/b"},
		{"without the page's address", "", doc("", `<img src="img/a.png" alt="A">`), doc("", `<img src="img/b.png" alt="A">`),
			"img/a.png", "img/b.png"},
		{"an ftp base href", page, doc(`<base href="ftp://files.example/">`, `<img src="img/a.png" alt="A">`), doc(`<base href="ftp://files.example/">`, `<img src="img/b.png" alt="A">`),
			"https://shop.example/cameras/img/a.png", "https://shop.example/cameras/img/b.png"},
		{"an about:blank base href", page, doc(`<base href="about:blank">`, `<a href="a.html">A</a>`), doc(`<base href="about:blank">`, `<a href="b.html">A</a>`),
			"https://shop.example/cameras/a.html", "https://shop.example/cameras/b.html"},
		{"a blob: base href", page, doc(`<base href="blob:https://shop.example/0b1e">`, `<img src="img/a.png" alt="A">`), doc(`<base href="blob:https://shop.example/0b1e">`, `<img src="img/b.png" alt="A">`),
			"https://shop.example/cameras/img/a.png", "https://shop.example/cameras/img/b.png"},
		{"data: URL", page, doc("", `<img src="data:image/png;base64,`+long+`" alt="A">`), doc("", `<img src="data:image/png;base64,`+long+`Rw==" alt="A">`),
			"…QUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJD", "…QUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDRw=="},
	} {
		p := NewPair(parseDoc(t, tc.old), parseDoc(t, tc.new), nil, nil)
		p.OldURL, p.NewURL = tc.page, tc.page
		r, err := p.Evaluate(monitor(t, "any change"))
		if err != nil {
			t.Fatal(err)
		}
		cs := r.AllChanges()
		if len(cs) != 1 {
			t.Errorf("%s: %d changes, want 1: %+v", tc.name, len(cs), cs)
			continue
		}
		old, new := cs[0].Texts()
		if tc.name == "data: URL" {
			if len(cs[0].Old) > maxRecordText+10 || old != tc.wantOld || new != tc.wantNew {
				t.Errorf("%s: a record of %d bytes, shown %q → %q, want %q → %q", tc.name, len(cs[0].Old), old, new, tc.wantOld, tc.wantNew)
			}
			continue
		}
		if cs[0].Old != tc.wantOld || cs[0].New != tc.wantNew || old != tc.wantOld || new != tc.wantNew {
			t.Errorf("%s: recorded %q → %q, shown %q → %q, want %q → %q", tc.name, cs[0].Old, cs[0].New, old, new, tc.wantOld, tc.wantNew)
		}
	}
}

// TestPageBase: a page's relative URLs resolve against its first base
// element's href, resolved against the page's address, else against the
// address; a base href that is not an http or https URL (data:,
// javascript:, ftp:, about:blank, blob:) is passed over for the address,
// as browsers pass over a base that cannot be one (the dashboard's frame
// dropped every URL of the page, the records resolved against it).
func TestPageBase(t *testing.T) {
	const page = "https://shop.example/cameras/index.html"
	for _, tc := range []struct{ name, page, head, want string }{
		{"the page", page, "", page},
		{"a base href", page, `<base href="/assets/">`, "https://shop.example/assets/"},
		{"the first base with an href", page, `<base target="_top"><base href="https://cdn.example/">`, "https://cdn.example/"},
		{"javascript", page, `<base href="javascript:alert(1)">`, page},
		{"data", page, `<base href="DATA:text/html,x">`, page},
		// Any base that is not http or https is passed over: the views
		// could name no URL against it, and the records resolved
		// against it (ftp://files.example/a.png).
		{"ftp", page, `<base href="ftp://files.example/">`, page},
		{"about:blank", page, `<base href="about:blank">`, page},
		{"blob", page, `<base href="blob:https://shop.example/0b1e">`, page},
		{"mailto", page, `<base href="mailto:x@shop.example">`, page},
		{"an ftp base, then an http one", page, `<base href="ftp://files.example/"><base href="https://cdn.example/">`, page},
		{"http in capitals", page, `<base href="HTTP://cdn.example/">`, "http://cdn.example/"},
		{"no address", "", `<base href="https://cdn.example/">`, ""},
		// A template's content is inert: its base sets no base URL.
		{"a base in a template", page, `<template><base href="/tmpl/"></template>`, page},
		{"a base after a template's", page, `<template><base href="/tmpl/"></template><base href="/assets/">`, "https://shop.example/assets/"},
		// Foreign content (svg, math) holds no HTML base: an svg or
		// MathML element named base is none, as browsers have it; an
		// HTML integration point (svg's foreignObject, desc and title,
		// MathML's mi, mo, mn, ms, mtext, an annotation-xml of HTML)
		// holds HTML again.
		{"a base in svg", page, `<svg><base href="/svg/"></base></svg>`, page},
		{"a base in math", page, `<math><base href="/math/"></base></math>`, page},
		{"a base in svg's g", page, `<svg><g><base href="/svg/"/></g></svg><base href="/assets/">`, "https://shop.example/assets/"},
		{"a base in an svg in a div", page, `</head><body><div><svg><base href="/svg/"/></svg></div><base href="/assets/"></body><head>`, "https://shop.example/assets/"},
		{"a base in svg's foreignObject", page, `<svg><foreignObject><base href="/fo/"></foreignObject></svg>`, "https://shop.example/fo/"},
		{"a base in math's mi", page, `<math><mi><base href="/mi/"></mi></math>`, "https://shop.example/mi/"},
		{"a base in an annotation-xml of HTML", page, `<math><annotation-xml encoding="text/html"><base href="/ax/"></annotation-xml></math>`, "https://shop.example/ax/"},
		{"a base in an annotation-xml of SVG", page, `<math><annotation-xml encoding="image/svg+xml"><base href="/ax/"></annotation-xml></math>`, page},
		{"a base in svg in a foreignObject", page, `<svg><foreignObject><svg><base href="/in/"/></svg></foreignObject></svg>`, page},
		{"a base in a template in a foreignObject", page, `<svg><foreignObject><template><base href="/t/"></template></foreignObject></svg>`, page},
		{"a relative address", "cameras/index.html", "", ""},
	} {
		doc := parseDoc(t, "<html><head>"+tc.head+"</head><body><p>Cameras</p></body></html>")
		got := ""
		if u := PageBase(tc.page, doc); u != nil {
			got = u.String()
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	// A base element in the body counts as in the head: the document's
	// base is its first base element with an href, wherever it stands
	// (HTML's "frozen base URL"), and every link of the page resolves
	// against it, those before it too.
	for _, tc := range []struct{ name, head, body, want string }{
		{"a base in the body", "", `<a href="x.html">x</a><base href="https://cdn.example/">`, "https://cdn.example/"},
		{"a head base first", `<base href="https://cdn.example/">`, `<base href="https://late.example/">`, "https://cdn.example/"},
		{"an ftp base in the body", "", `<base href="ftp://files.example/">`, page},
	} {
		doc := parseDoc(t, "<html><head>"+tc.head+"</head><body><p>Cameras</p>"+tc.body+"</body></html>")
		got := ""
		if u := PageBase(page, doc); u != nil {
			got = u.String()
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestAnyChangeSameURL: any change passes over a link target, image
// source or citation rewritten to the same URL, resolved against each
// version's address and <base href>: a page that writes its images
// absolute (src="a.png" become src="https://shop.example/cameras/a.png")
// showed a reader the same image, yet was told as an update whose two
// sides read the same URL ("https://shop.example/cameras/a.png ->
// https://shop.example/cameras/a.png"), a notification of nothing. A URL
// that resolves elsewhere is still a change, and so is any rewrite
// without the page's address (nothing to resolve against).
func TestAnyChangeSameURL(t *testing.T) {
	const page = "https://shop.example/cameras/index.html"
	doc := func(head, body string) string {
		return "<html><head>" + head + "</head><body><p>Cameras</p>" + body + "</body></html>"
	}
	for _, tc := range []struct {
		name, page, old, new string
		want                 []string // the changes, old → new
	}{
		{"an image written absolute", page, doc("", `<img src="a.png" alt="A">`), doc("", `<img src="https://shop.example/cameras/a.png" alt="A">`), nil},
		{"a link written relative", page, doc("", `<a href="HTTPS://Shop.Example:443/offers">Offers</a>`), doc("", `<a href="/offers">Offers</a>`), nil},
		{"the base changed with it", page,
			doc(`<base href="https://cdn.example/shop/">`, `<img src="img/a.png" alt="A">`),
			doc(`<base href="https://cdn.example/">`, `<img src="shop/img/a.png" alt="A">`),
			[]string{"https://cdn.example/shop/ → https://cdn.example/"}},
		{"with a change of text", page, doc("", `<img src="a.png" alt="A"><p>Price 10</p>`), doc("", `<img src="/cameras/a.png" alt="A"><p>Price 12</p>`),
			[]string{"Price 10 → Price 12"}},
		{"another URL", page, doc("", `<img src="a.png" alt="A">`), doc("", `<img src="https://shop.example/a.png" alt="A">`),
			[]string{"https://shop.example/cameras/a.png → https://shop.example/a.png"}},
		{"without the page's address", "", doc("", `<img src="a.png" alt="A">`), doc("", `<img src="https://shop.example/cameras/a.png" alt="A">`),
			[]string{"a.png → https://shop.example/cameras/a.png"}},
	} {
		p := NewPair(parseDoc(t, tc.old), parseDoc(t, tc.new), nil, nil)
		p.OldURL, p.NewURL = tc.page, tc.page
		r, err := p.Evaluate(monitor(t, "any change"))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range r.AllChanges() {
			old, new := c.Texts()
			got = append(got, old+" → "+new)
		}
		if !slices.Equal(got, tc.want) || r.Matched != (len(tc.want) > 0) {
			t.Errorf("%s: matched %v, changes %q; want %q", tc.name, r.Matched, got, tc.want)
		}
	}
}

package intent

import (
	"cmp"
	"slices"
	"testing"

	"github.com/vigil-web/vigil/treediff"
)

// TestContentAttributes: any change reports a change of each HTML
// attribute a reader of the page gets or acts on (contentattrs.go), and
// none of the attributes that change at every fetch or only style the
// page. want is the brief of the change ("op:path:old->new"), "" for none.
func TestContentAttributes(t *testing.T) {
	page := func(head, body string) string {
		return `<!DOCTYPE html><html><head><title>Shop</title>` + head + `</head><body>` + body + `</body></html>`
	}
	tests := []struct {
		name         string
		oldHead, old string
		newHead, new string
		want         string
		want2        string // a second change, if any
	}{
		// Text a reader gets, on any element.
		{name: "title of a link", old: `<a href="/x" title="Old tip">x</a>`, new: `<a href="/x" title="New tip">x</a>`, want: "update:/html[1]/body[1]/a[1]/@title:Old tip->New tip"},
		{name: "title of a span", old: `<span title="In stock">x</span>`, new: `<span title="Sold out">x</span>`, want: "update:/html[1]/body[1]/span[1]/@title:In stock->Sold out"},
		{name: "aria-label", old: `<button aria-label="Add to cart">+</button>`, new: `<button aria-label="Notify me">+</button>`, want: "update:/html[1]/body[1]/button[1]/@aria-label:Add to cart->Notify me"},
		{name: "attribute name in upper case", old: `<span TITLE="a">x</span>`, new: `<span TITLE="b">x</span>`, want: "update:/html[1]/body[1]/span[1]/@title:a->b"},
		// State attributes: their presence is the change.
		{name: "disabled removed", old: `<button class="buy" disabled>Buy</button>`, new: `<button class="buy">Buy</button>`, want: "delete:/html[1]/body[1]/button[1]/@disabled:disabled->"},
		{name: "disabled added", old: `<button class="buy">Buy</button>`, new: `<button class="buy" disabled="">Buy</button>`, want: "insert:/html[1]/body[1]/button[1]/@disabled:->disabled"},
		{name: "disabled written otherwise", old: `<button disabled>Buy</button>`, new: `<button disabled="disabled">Buy</button>`},
		{name: "checked added", old: `<input type="checkbox" name="n">`, new: `<input type="checkbox" name="n" checked>`, want: "insert:/html[1]/body[1]/input[1]/@checked:->checked"},
		{name: "selected removed", old: `<select><option selected>S</option><option>M</option></select>`, new: `<select><option>S</option><option>M</option></select>`, want: "delete:/html[1]/body[1]/select[1]/option[1]/@selected:selected->"},
		{name: "hidden removed", old: `<p>x</p><div hidden>Back soon</div>`, new: `<p>x</p><div>Back soon</div>`, want: "delete:/html[1]/body[1]/div[1]/@hidden:hidden->"},
		{name: "text in a hidden element", old: `<p>x</p><div hidden>Back soon</div>`, new: `<p>x</p><div hidden>Back on Monday</div>`, want: "update:/html[1]/body[1]/div[1]/text()[1]:Back soon->Back on Monday"},
		{name: "open added", old: `<details><summary>More</summary>x</details>`, new: `<details open><summary>More</summary>x</details>`, want: "insert:/html[1]/body[1]/details[1]/@open:->open"},
		// Form fields and gauges.
		{name: "input value", old: `<input name="q" value="3">`, new: `<input name="q" value="4">`, want: "update:/html[1]/body[1]/input[1]/@value:3->4"},
		{name: "text input placeholder", old: `<input type="text" placeholder="Search shoes">`, new: `<input type="text" placeholder="Search boots">`, want: "update:/html[1]/body[1]/input[1]/@placeholder:Search shoes->Search boots"},
		{name: "textarea placeholder", old: `<textarea placeholder="Your review"></textarea>`, new: `<textarea placeholder="Your question"></textarea>`, want: "update:/html[1]/body[1]/textarea[1]/@placeholder:Your review->Your question"},
		{name: "meter value", old: `<meter value="0.2">low</meter>`, new: `<meter value="0.9">low</meter>`, want: "update:/html[1]/body[1]/meter[1]/@value:0.2->0.9"},
		{name: "progress value", old: `<progress value="10" max="100">x</progress>`, new: `<progress value="70" max="100">x</progress>`, want: "update:/html[1]/body[1]/progress[1]/@value:10->70"},
		{name: "option label", old: `<select><option label="Small" value="s">S</option></select>`, new: `<select><option label="Small (sold out)" value="s">S</option></select>`, want: "update:/html[1]/body[1]/select[1]/option[1]/@label:Small->Small (sold out)"},
		{name: "optgroup label", old: `<select><optgroup label="Shoes"><option>a</option></optgroup></select>`, new: `<select><optgroup label="Boots"><option>a</option></optgroup></select>`, want: "update:/html[1]/body[1]/select[1]/optgroup[1]/@label:Shoes->Boots"},
		{name: "track label", old: `<video src="/v.mp4"><track src="/en.vtt" label="English"></video>`, new: `<video src="/v.mp4"><track src="/en.vtt" label="English (CC)"></video>`, want: "update:/html[1]/body[1]/video[1]/track[1]/@label:English->English (CC)"},
		// The page's description to readers, search engines and shares.
		{name: "meta description", oldHead: `<meta name="description" content="Old desc">`, newHead: `<meta name="description" content="New desc">`, old: `<p>x</p>`, new: `<p>x</p>`, want: "update:/html[1]/head[1]/meta[1]/@content:Old desc->New desc"},
		{name: "meta Description in capitals", oldHead: `<meta NAME="Description" content="a">`, newHead: `<meta NAME="Description" content="b">`, old: `<p>x</p>`, new: `<p>x</p>`, want: "update:/html[1]/head[1]/meta[1]/@content:a->b"},
		{name: "meta keywords", oldHead: `<meta name="keywords" content="a, b">`, newHead: `<meta name="keywords" content="a, c">`, old: `<p>x</p>`, new: `<p>x</p>`, want: "update:/html[1]/head[1]/meta[1]/@content:a, b->a, c"},
		{name: "meta author", oldHead: `<meta name="author" content="Ann">`, newHead: `<meta name="author" content="Bob">`, old: `<p>x</p>`, new: `<p>x</p>`, want: "update:/html[1]/head[1]/meta[1]/@content:Ann->Bob"},
		{name: "og:title", oldHead: `<meta property="og:title" content="Shoe">`, newHead: `<meta property="og:title" content="Boot">`, old: `<p>x</p>`, new: `<p>x</p>`, want: "update:/html[1]/head[1]/meta[1]/@content:Shoe->Boot"},
		{name: "OG:Title in capitals", oldHead: `<meta property="OG:Title" content="Shoe">`, newHead: `<meta property="OG:Title" content="Boot">`, old: `<p>x</p>`, new: `<p>x</p>`, want: "update:/html[1]/head[1]/meta[1]/@content:Shoe->Boot"},
		{name: "twitter:description", oldHead: `<meta name="twitter:description" content="Old">`, newHead: `<meta name="twitter:description" content="New">`, old: `<p>x</p>`, new: `<p>x</p>`, want: "update:/html[1]/head[1]/meta[1]/@content:Old->New"},
		{name: "product:price:amount", oldHead: `<meta property="product:price:amount" content="59.99">`, newHead: `<meta property="product:price:amount" content="49.99">`, old: `<p>x</p>`, new: `<p>x</p>`, want: "update:/html[1]/head[1]/meta[1]/@content:59.99->49.99"},
		{name: "product:price:currency", oldHead: `<meta property="product:price:currency" content="EUR">`, newHead: `<meta property="product:price:currency" content="USD">`, old: `<p>x</p>`, new: `<p>x</p>`, want: "update:/html[1]/head[1]/meta[1]/@content:EUR->USD"},
		{name: "product:availability", oldHead: `<meta property="product:availability" content="out of stock">`, newHead: `<meta property="product:availability" content="in stock">`, old: `<p>x</p>`, new: `<p>x</p>`, want: "update:/html[1]/head[1]/meta[1]/@content:out of stock->in stock"},
		{name: "og:description", oldHead: `<meta property="og:description" content="Old">`, newHead: `<meta property="og:description" content="New">`, old: `<p>x</p>`, new: `<p>x</p>`, want: "update:/html[1]/head[1]/meta[1]/@content:Old->New"},
		{name: "twitter:title", oldHead: `<meta name="twitter:title" content="Shoe">`, newHead: `<meta name="twitter:title" content="Boot">`, old: `<p>x</p>`, new: `<p>x</p>`, want: "update:/html[1]/head[1]/meta[1]/@content:Shoe->Boot"},
		{name: "og:site_name, read in link previews", oldHead: `<meta property="og:site_name" content="Shoes">`, newHead: `<meta property="og:site_name" content="Boots">`, old: `<p>x</p>`, new: `<p>x</p>`, want: "update:/html[1]/head[1]/meta[1]/@content:Shoes->Boots"},
		{name: "twitter:site, a handle", oldHead: `<meta name="twitter:site" content="@shoes">`, newHead: `<meta name="twitter:site" content="@boots">`, old: `<p>x</p>`, new: `<p>x</p>`, want: "update:/html[1]/head[1]/meta[1]/@content:@shoes->@boots"},
		{name: "twitter:creator, a handle", oldHead: `<meta name="twitter:creator" content="@ann">`, newHead: `<meta name="twitter:creator" content="@bob">`, old: `<p>x</p>`, new: `<p>x</p>`, want: "update:/html[1]/head[1]/meta[1]/@content:@ann->@bob"},
		{name: "og:image:alt, an image's text", oldHead: `<meta property="og:image:alt" content="A shoe">`, newHead: `<meta property="og:image:alt" content="A boot">`, old: `<p>x</p>`, new: `<p>x</p>`, want: "update:/html[1]/head[1]/meta[1]/@content:A shoe->A boot"},
		// A link element's href, of a paging relation only: where the
		// listing's next (or previous) page is, as an <a href> says.
		{name: "link rel=next added", oldHead: ``, newHead: `<link rel="next" href="/list/2">`, old: `<p>x</p>`, new: `<p>x</p>`, want: "insert:/html[1]/head[1]/link[1]/@href:->/list/2"},
		{name: "link rel=next removed", oldHead: `<link rel="next" href="/list/2">`, newHead: ``, old: `<p>x</p>`, new: `<p>x</p>`, want: "delete:/html[1]/head[1]/link[1]/@href:/list/2->"},
		{name: "link rel=PREV moved", oldHead: `<link rel="PREV" href="/list/1">`, newHead: `<link rel="PREV" href="/list/2">`, old: `<p>x</p>`, new: `<p>x</p>`, want: "update:/html[1]/head[1]/link[1]/@href:/list/1->/list/2"},
		{name: "title of a link rel=next", oldHead: `<link rel="next" href="/list/2" title="Two">`, newHead: `<link rel="next" href="/list/2" title="2">`, old: `<p>x</p>`, new: `<p>x</p>`},
		{name: "stylesheet's new version", oldHead: `<link rel="stylesheet" href="/site.css?v=1">`, newHead: `<link rel="stylesheet" href="/site.css?v=2">`, old: `<p>x</p>`, new: `<p>x</p>`},
		{name: "canonical link", oldHead: `<link rel="canonical" href="/a?ref=1">`, newHead: `<link rel="canonical" href="/a?ref=2">`, old: `<p>x</p>`, new: `<p>x</p>`},
		// Noise: attributes that change at every fetch, or only style.
		{name: "csrf token in meta", oldHead: `<meta name="csrf-token" content="a1b2">`, newHead: `<meta name="csrf-token" content="c3d4">`, old: `<p>x</p>`, new: `<p>x</p>`},
		{name: "meta viewport", oldHead: `<meta name="viewport" content="width=device-width">`, newHead: `<meta name="viewport" content="width=1024">`, old: `<p>x</p>`, new: `<p>x</p>`},
		{name: "meta http-equiv", oldHead: `<meta http-equiv="refresh" content="30">`, newHead: `<meta http-equiv="refresh" content="60">`, old: `<p>x</p>`, new: `<p>x</p>`},
		{name: "hidden input value", old: `<form><input type="hidden" name="csrf" value="a1b2"></form>`, new: `<form><input type="hidden" name="csrf" value="c3d4"></form>`},
		{name: "value of an input with hidden", old: `<form><input hidden name="csrf" value="a1b2"></form>`, new: `<form><input hidden name="csrf" value="c3d4"></form>`},
		{name: "placeholder of an input with HIDDEN", old: `<form><input HIDDEN name="t" placeholder="a1b2"></form>`, new: `<form><input HIDDEN name="t" placeholder="c3d4"></form>`},
		{name: "value of an input in a hidden element", old: `<form><div hidden><input name="csrf" value="a1b2"></div><p>x</p></form>`, new: `<form><div hidden><input name="csrf" value="c3d4"></div><p>x</p></form>`},
		{name: "input in a hidden element shown", old: `<form><div hidden><input name="q" value="3"></div><p>x</p></form>`, new: `<form><div><input name="q" value="3"></div><p>x</p></form>`, want: "delete:/html[1]/body[1]/form[1]/div[1]/@hidden:hidden->", want2: "insert:/html[1]/body[1]/form[1]/div[1]/input[1]/@value:->3"},
		{name: "og:image, a signed CDN URL", oldHead: `<meta property="og:image" content="https://cdn.example.org/a.jpg?sig=1">`, newHead: `<meta property="og:image" content="https://cdn.example.org/a.jpg?sig=2">`, old: `<p>x</p>`, new: `<p>x</p>`},
		{name: "og:image:width", oldHead: `<meta property="og:image:width" content="1200">`, newHead: `<meta property="og:image:width" content="800">`, old: `<p>x</p>`, new: `<p>x</p>`},
		{name: "og:image:secure_url", oldHead: `<meta property="og:image:secure_url" content="https://cdn.example.org/a.jpg?sig=1">`, newHead: `<meta property="og:image:secure_url" content="https://cdn.example.org/a.jpg?sig=2">`, old: `<p>x</p>`, new: `<p>x</p>`},
		{name: "og:url", oldHead: `<meta property="og:url" content="https://shop.example.org/a?ref=1">`, newHead: `<meta property="og:url" content="https://shop.example.org/a?ref=2">`, old: `<p>x</p>`, new: `<p>x</p>`},
		{name: "og:type", oldHead: `<meta property="og:type" content="website">`, newHead: `<meta property="og:type" content="product">`, old: `<p>x</p>`, new: `<p>x</p>`},
		{name: "OG:Locale in capitals", oldHead: `<meta property="OG:Locale" content="en_US">`, newHead: `<meta property="OG:Locale" content="en_GB">`, old: `<p>x</p>`, new: `<p>x</p>`},
		{name: "twitter:card", oldHead: `<meta name="twitter:card" content="summary">`, newHead: `<meta name="twitter:card" content="summary_large_image">`, old: `<p>x</p>`, new: `<p>x</p>`},
		{name: "twitter:image", oldHead: `<meta name="twitter:image" content="/a.jpg?sig=1">`, newHead: `<meta name="twitter:image" content="/a.jpg?sig=2">`, old: `<p>x</p>`, new: `<p>x</p>`},
		{name: "a URL in another og meta", oldHead: `<meta property="og:see_also" content="https://cdn.example.org/x?sig=1">`, newHead: `<meta property="og:see_also" content="HTTPS://cdn.example.org/x?sig=2">`, old: `<p>x</p>`, new: `<p>x</p>`},
		{name: "HIDDEN input value", old: `<form><input type="HIDDEN" name="csrf" value="a1b2"></form>`, new: `<form><input type="HIDDEN" name="csrf" value="c3d4"></form>`},
		{name: "nonce", old: `<div nonce="a1b2">x</div>`, new: `<div nonce="c3d4">x</div>`},
		{name: "style", old: `<p style="color:red">x</p>`, new: `<p style="color:blue">x</p>`},
		{name: "class", old: `<p class="a">x</p>`, new: `<p class="b">x</p>`},
		{name: "id", old: `<p id="p-1">x</p>`, new: `<p id="p-2">x</p>`},
		{name: "data attribute", old: `<p data-ts="1">x</p>`, new: `<p data-ts="2">x</p>`},
		{name: "srcset cache buster", old: `<img src="/a.png" srcset="/a.png?v=1 2x" alt="A">`, new: `<img src="/a.png" srcset="/a.png?v=2 2x" alt="A">`},
		{name: "value of a button", old: `<button name="b" value="1">Go</button>`, new: `<button name="b" value="2">Go</button>`},
		{name: "label of a div", old: `<div label="a">x</div>`, new: `<div label="b">x</div>`},
		{name: "placeholder of a div", old: `<div placeholder="a">x</div>`, new: `<div placeholder="b">x</div>`},
		{name: "empty element added", old: `<p>x</p>`, new: `<p>x</p><hr>`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := evalClause(t, page(tc.oldHead, tc.old), page(tc.newHead, tc.new), `any change`)
			var got []string
			for _, c := range r.Changes {
				got = append(got, string(c.Op)+":"+cmp.Or(c.NewPath, c.OldPath)+":"+c.Old+"->"+c.New)
			}
			var want []string
			for _, w := range []string{tc.want, tc.want2} {
				if w != "" {
					want = append(want, w)
				}
			}
			if !slices.Equal(got, want) || r.Matched != (tc.want != "") {
				t.Errorf("%s%s -> %s%s: matched %v, changes %q, want %q", tc.oldHead, tc.old, tc.newHead, tc.new, r.Matched, got, want)
			}
		})
	}
}

// TestContentAttributesOnlyAnyChange: the attributes that are content
// for any change are not the page's words: all words, keywords, phrases
// and regular expressions read its texts, so that a tooltip or a label
// found nowhere in the text matches none of them.
func TestContentAttributesOnlyAnyChange(t *testing.T) {
	page := func(body string) string {
		return `<!DOCTYPE html><html><head><title>Shop</title></head><body><p>Boots</p>` + body + `</body></html>`
	}
	old := page(`<button aria-label="Add to cart" title="Add">+</button>`)
	new := page(`<button aria-label="Sold out" title="Sold out" disabled>+</button>`)
	for _, clause := range []string{`all words`, `keywords {sold}`, `phrase {"sold out"}`, `regular expression {"Sold"}`} {
		if r := evalClause(t, old, new, clause); r.Matched {
			t.Errorf("%s matched %s", clause, briefs(r.Changes))
		}
	}
	if r := evalClause(t, old, new, `any change`); !r.Matched {
		t.Errorf("any change did not match")
	}
}

// TestStateMoved: a state that leaves one element for another of its
// kind (the selected option, the checked radio button, the open details,
// the shown tab) is one move, headed as the state going to another
// element, and the line still says which state.
func TestStateMoved(t *testing.T) {
	page := func(body string) string {
		return `<!DOCTYPE html><html><head><title>Shop</title></head><body>` + body + `</body></html>`
	}
	tests := []struct {
		name, old, new string
		want           string // the line of the only change
	}{
		{name: "selected", old: `<select><option selected>S</option><option>M</option><option>L</option></select>`, new: `<select><option>S</option><option>M</option><option selected>L</option></select>`,
			want: "~ selected moved to another option: selected"},
		{name: "checked", old: `<form><input type="radio" name="s" value="s" checked>S <input type="radio" name="s" value="m">M</form>`, new: `<form><input type="radio" name="s" value="s">S <input type="radio" name="s" value="m" checked>M</form>`,
			want: "~ checked moved to another input: checked"},
		{name: "open", old: `<details open><summary>A</summary>a</details><details><summary>B</summary>b</details>`, new: `<details><summary>A</summary>a</details><details open><summary>B</summary>b</details>`,
			want: "~ open moved to another details: open"},
		{name: "hidden", old: `<div hidden>Tab A</div><div>Tab B</div>`, new: `<div>Tab A</div><div hidden>Tab B</div>`,
			want: "~ hidden moved to another div: hidden"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := evalClause(t, page(tc.old), page(tc.new), `any change`)
			var got []string
			for _, c := range r.Changes {
				got = append(got, c.Line())
			}
			if !slices.Equal(got, []string{tc.want}) {
				t.Errorf("%s -> %s: %q, want %q", tc.old, tc.new, got, tc.want)
			}
		})
	}
}

// TestBackInStock is the user test's page end to end: both versions
// parsed as the monitor parses them, their tree delta computed, and the
// sentinel's Monitor clause evaluated on them.
func TestBackInStock(t *testing.T) {
	const old = `<!DOCTYPE html><html><head><title>Boots</title>
<meta name="description" content="Old desc">
<meta name="csrf-token" content="token-1">
</head><body>
<h1>Boots</h1>
<form><input type="hidden" name="authenticity_token" value="token-1">
<input type="text" name="qty" placeholder="How many?" title="Quantity">
<button class="buy" disabled>Add to cart</button></form>
</body></html>`
	const new = `<!DOCTYPE html><html><head><title>Boots</title>
<meta name="description" content="New desc">
<meta name="csrf-token" content="token-2">
</head><body>
<h1>Boots</h1>
<form><input type="hidden" name="authenticity_token" value="token-2">
<input type="text" name="qty" placeholder="Quantity" title="How many pairs">
<button class="buy">Add to cart</button></form>
</body></html>`
	a, b := parseDoc(t, old), parseDoc(t, new)
	d, err := treediff.Diff(a, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewPair(a, b, d, nil).Evaluate(monitor(t, `any change`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range r.Changes {
		got = append(got, c.Heading()+": "+cmp.Or(c.New, c.Old))
	}
	slices.Sort(got)
	want := []string{
		"attribute content changed: New desc",
		"attribute disabled removed: disabled",
		"attribute placeholder changed: Quantity",
		"attribute title changed: How many pairs",
	}
	if !r.Matched || !slices.Equal(got, want) {
		t.Errorf("matched %v, changes %q, want %q", r.Matched, got, want)
	}
}

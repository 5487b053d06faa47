package intent

import (
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

// TestReadDifferently: a pair whose versions are read differently, one as
// markup and the other as its source text (a feed served malformed for
// one check, a page served as text/plain one day and text/html the next),
// is compared like with like when its caller gives the markup side's
// source text (Pair.OldSource, Pair.NewSource): its links are the URLs
// written in both texts, so that no link is reported that the document
// did not change (a feed's text holds a namespace URI and ids besides its
// feed links), and a link that did change is;
// images, tables and lists, which a text has none of, are not reported
// removed or added, and neither are keywords, which a page's source text
// writes among its tags, nor a value its scope selects in one version
// only. Without the source the pair is compared as
// before, each side as it is read.
func TestReadDifferently(t *testing.T) {
	feed := func(broken bool, entries ...string) string {
		var b strings.Builder
		b.WriteString("<?xml version=\"1.0\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<link rel=\"self\" href=\"https://blog.example/feed.xml\"/>\n<id>https://blog.example/</id>\n")
		for _, e := range entries {
			b.WriteString("<entry><title>" + e + "</title><link href=\"https://blog.example/" + e + "\"/></entry>\n")
		}
		if broken {
			return strings.TrimSuffix(b.String(), "</entry>\n") + "\n"
		}
		return b.String() + "</feed>\n"
	}
	page := func(heading string, links ...string) string {
		var b strings.Builder
		b.WriteString(heading + "\n<p><img src=\"https://img.example/logo.png\" alt=\"Logo\"></p>\n<table><tr><td>Monday</td><td>9 to 5</td></tr></table>\n<ul><li>One</li><li>Two</li></ul>\n")
		for _, l := range links {
			b.WriteString("<p><a href=\"" + l + "\">" + l + "</a></p>\n")
		}
		return b.String()
	}
	xml := func(s string) *tree.Document {
		t.Helper()
		d, _, err := markup.ParseBytes([]byte(s), &markup.Options{MediaType: "application/atom+xml"})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	type side struct {
		text   string
		markup func(string) *tree.Document // nil: read as text
	}
	htmlDoc := func(s string) *tree.Document { return parseDoc(t, s) }
	for _, tc := range []struct {
		name     string
		clause   string
		old, new side
		noSource bool
		want     []string
	}{
		{"feed broken", "all links", side{feed(false, "a"), xml}, side{feed(true, "a"), nil}, false, nil},
		{"feed fixed", "all links", side{feed(true, "a"), nil}, side{feed(false, "a"), xml}, false, nil},
		{"feed fixed with an entry added", "all links", side{feed(true, "a"), nil}, side{feed(false, "a", "b"), xml}, false,
			[]string{"+ link added: https://blog.example/b"}},
		{"page read as text, a link changed", "all links", side{page("Hours", "https://x.example/a", "https://x.example/b"), htmlDoc},
			side{page("Hours:", "https://x.example/a", "https://x.example/c"), nil}, false,
			// The source writes the URL twice, as the target and the
			// text: the change is told once (linkEdits).
			[]string{"~ link changed: https://x.example/b -> https://x.example/c"}},
		{"images", "all images", side{page("Hours", "https://x.example/a"), htmlDoc}, side{page("Hours:", "https://x.example/a"), nil}, false, nil},
		{"tables", "table", side{page("Hours", "https://x.example/a"), nil}, side{page("Hours:", "https://x.example/a"), htmlDoc}, false, nil},
		{"lists", "list", side{page("Hours", "https://x.example/a"), htmlDoc}, side{page("Hours:", "https://x.example/a"), nil}, false, nil},
		{"keywords", "keywords {Monday}", side{page("Hours", "https://x.example/a"), htmlDoc}, side{page("Hours:", "https://x.example/a"), nil}, false, nil},
		{"value", `value In css "td" changes`, side{page("Hours", "https://x.example/a"), htmlDoc}, side{page("Hours:", "https://x.example/a"), nil}, false, nil},
		{"any change", "any change", side{page("Hours", "https://x.example/a"), htmlDoc}, side{page("Hours:", "https://x.example/a"), nil}, false,
			[]string{"~ text changed: Hours -> Hours:"}},
		// A link written relative in the source is a link there too,
		// resolved against the page's address, as on the parsed page;
		// one whose tag runs over lines as well. href= in prose, outside
		// a tag, is none.
		{"relative link added with the type change", "all links",
			side{"<!DOCTYPE html>\n<p><a href=\"/a\">A</a></p>\n", nil},
			side{"<!DOCTYPE html>\n<p><a href=\"/a\">A</a></p>\n<p><a class=\"more\"\n  href='docs/b?x=1&amp;y=2'>B</a></p>\n", htmlDoc}, false,
			[]string{"+ link added: https://x.example/docs/b?x=1&y=2"}},
		{"relative link removed with the type change", "all links",
			side{"<p><a href=\"/a\">A</a> <img src=\"logo.png\"></p>\n", htmlDoc},
			side{"<p>Write href=\"/c\" for a link, or <code>src=/d</code>.</p>\n", nil}, false,
			[]string{"- link removed: https://x.example/a", "- link removed: https://x.example/logo.png"}},
		{"feed broken, no source given", "all links", side{feed(false, "a"), xml}, side{feed(true, "a"), nil}, true,
			// The feed read as markup has its feed links (FeedLinks), the
			// entry's labelled by its title; its text has their URLs and
			// more (its self link, which is no feed link).
			[]string{"~ link changed: a -> https://blog.example/a (https://blog.example/a)", "+ link added: http://www.w3.org/2005/Atom",
				"+ link added: https://blog.example/feed.xml", "+ link added: https://blog.example/"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			read := func(s side) (doc, source *tree.Document, asText bool) {
				if s.markup == nil {
					return textPage(t, s.text), nil, true
				}
				if !tc.noSource {
					source = textPage(t, s.text)
				}
				return s.markup(s.text), source, false
			}
			old, oldSource, oldText := read(tc.old)
			new, newSource, newText := read(tc.new)
			p := NewPair(old, new, nil, nil)
			p.OldURL, p.NewURL = "https://x.example/", "https://x.example/"
			p.OldReadAsText, p.NewReadAsText = oldText, newText
			p.OldSource, p.NewSource = oldSource, newSource
			r, err := p.Evaluate(monitor(t, tc.clause))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range r.AllChanges() {
				got = append(got, c.Line())
			}
			if !slices.Equal(got, tc.want) || r.Matched != (len(tc.want) > 0) {
				t.Errorf("matched %v, changes\n%q\nwant\n%q", r.Matched, got, tc.want)
			}
		})
	}
}

// TestReadDifferentlyScope: a change type with a scope or an ignore list,
// on a pair whose versions are read differently and compared as their two
// source texts, applies its selectors to the two texts read leniently as
// HTML, as on two pages, so that a scoped sentinel sees the changes in its
// scope and none outside; a scope that selects in the texts as read (In
// css "pre", the whole text) is applied there, as on any page read as text.
// A text that cannot be read as HTML (nested past the parser's limit)
// leaves the selectors unapplied: the whole texts are compared, and the
// result says why (Result.ScopeNotApplied).
func TestReadDifferentlyScope(t *testing.T) {
	page := func(price, at, nav string) string {
		return "<!DOCTYPE html>\n<html><body>\n<nav class=\"nav\"><a href=\"/home\">Home</a>" + nav + "</nav>\n" +
			"<p class=\"price\">" + price + " EUR</p>\n<p class=\"time\">Updated " + at + "</p>\n<p><a href=\"/about\">About</a></p>\n</body></html>\n"
	}
	deep := strings.Repeat("<div>", 600) + "\n"
	htmlDoc := func(s string) *tree.Document { return parseDoc(t, s) }
	for _, tc := range []struct {
		name       string
		clause     string
		old, new   string
		oldMarkup  bool // else the new version is read as markup
		want       []string
		notApplied Selectors // what could not be applied
	}{
		{"in scope", `any change In css ".price"`, page("10", "9:00", ""), page("12", "9:05", ""), false,
			[]string{"~ text changed: 10 EUR -> 12 EUR"}, 0},
		{"outside the scope", `any change In css ".price"`, page("10", "9:00", ""), page("10", "9:05", ""), true, nil, 0},
		{"xpath scope", `any change In xpath "//p[@class='price']"`, page("10", "9:00", ""), page("12", "9:05", ""), true,
			[]string{"~ text changed: 10 EUR -> 12 EUR"}, 0},
		{"ignored", `any change Ignore css ".time"`, page("10", "9:00", ""), page("10", "9:05", ""), false, nil, 0},
		{"links in scope", `all links In css ".nav"`, page("10", "9:00", ""), page("12", "9:05", "<a href=\"news\">News</a>"), false,
			[]string{"+ link added: https://x.example/news"}, 0},
		{"links outside the scope", `all links In css ".nav"`, page("10", "9:00", ""), strings.Replace(page("10", "9:00", ""), "/about", "/contact", 1), true, nil, 0},
		{"value", `value In css ".price" changes`, page("10", "9:00", ""), page("12", "9:05", ""), false,
			[]string{"~ value increased by 2: 10 EUR -> 12 EUR"}, 0},
		{"value unchanged", `value In css ".price" changes`, page("10", "9:00", ""), page("10", "9:05", ""), true, nil, 0},
		{"the whole text", `any change In css "pre"`, "Hours: 9 to 5\n", "Hours: 9 to 6\n", false,
			[]string{"~ text changed: Hours: 9 to 5 -> Hours: 9 to 6"}, 0},
		// The old version, nested too deep, is read as text; so is the
		// new one's source, which the scope is not applied to either.
		{"too deep to read as HTML", `any change In css ".price"`, deep + page("10", "9:00", ""), page("10", "9:05", ""), false,
			[]string{"- text removed: " + strings.Repeat("<div>", 60) + "…", "~ text changed: <p class=\"time\">Updated 9:00</p> -> <p class=\"time\">Updated 9:05</p>"}, SelectorScope},
		{"too deep to read as HTML, ignored", `any change Ignore css ".time"`, deep + page("10", "9:00", ""), page("10", "9:05", ""), false,
			[]string{"- text removed: " + strings.Repeat("<div>", 60) + "…", "~ text changed: <p class=\"time\">Updated 9:00</p> -> <p class=\"time\">Updated 9:05</p>"}, SelectorIgnore},
		{"too deep to read as HTML, in a scope and ignored", `any change In css ".price" Ignore css ".time"`, deep + page("10", "9:00", ""), page("10", "9:05", ""), false,
			[]string{"- text removed: " + strings.Repeat("<div>", 60) + "…", "~ text changed: <p class=\"time\">Updated 9:00</p> -> <p class=\"time\">Updated 9:05</p>"}, SelectorScope | SelectorIgnore},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old, new := textPage(t, tc.old), textPage(t, tc.new)
			p := NewPair(old, new, nil, nil)
			if tc.oldMarkup {
				p.Old, p.OldSource, p.NewReadAsText = htmlDoc(tc.old), old, true
			} else {
				p.New, p.NewSource, p.OldReadAsText = htmlDoc(tc.new), new, true
			}
			p.OldURL, p.NewURL = "https://x.example/", "https://x.example/"
			r, err := p.Evaluate(monitor(t, tc.clause))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range r.AllChanges() {
				got = append(got, c.Line())
			}
			if !slices.Equal(got, tc.want) || r.Matched != (len(tc.want) > 0) {
				t.Errorf("matched %v, changes\n%q\nwant\n%q", r.Matched, got, tc.want)
			}
			const why = "the old version's text cannot be read as HTML: parse HTML: elements nested more than 512 deep"
			if got := r.ScopeNotApplied; (tc.notApplied != 0) != strings.HasPrefix(got, why) || tc.notApplied == 0 && got != "" {
				t.Errorf("ScopeNotApplied %q, want one starting %q: %v", got, why, tc.notApplied != 0)
			}
			if r.NotApplied != tc.notApplied {
				t.Errorf("NotApplied %q, want %q", r.NotApplied, tc.notApplied)
			}
			// A composite tells its operands'.
			both, err := p.Evaluate(monitor(t, tc.clause+" OR all links"))
			if err != nil {
				t.Fatal(err)
			}
			if got := both.ScopesNotApplied(); len(got) != len(r.ScopesNotApplied()) || tc.notApplied != 0 && got[0] != r.ScopeNotApplied {
				t.Errorf("ScopesNotApplied of an OR %q, want those of its scoped operand %q", got, r.ScopesNotApplied())
			}
			if got := both.SelectorsNotApplied(); got != tc.notApplied {
				t.Errorf("SelectorsNotApplied of an OR %q, want %q", got, tc.notApplied)
			}
		})
	}
}

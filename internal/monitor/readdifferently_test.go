package monitor

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/spec"
	"github.com/vigil-web/vigil/tree"
)

// servedVersion is a body and the Content-Type it is served with.
type servedVersion struct{ contentType, body string }

// versionServer serves at every path the version last set, first; it is
// closed when the test ends.
func versionServer(t *testing.T, first servedVersion) (srv *httptest.Server, set func(servedVersion)) {
	var mu sync.Mutex
	cur := first
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", cur.contentType)
		io.WriteString(w, cur.body)
	}))
	t.Cleanup(srv.Close)
	return srv, func(v servedVersion) {
		mu.Lock()
		cur = v
		mu.Unlock()
	}
}

const (
	atomType  = "application/atom+xml"
	htmlType  = "text/html; charset=utf-8"
	plainType = "text/plain; charset=utf-8"
)

// atomFeed is an Atom feed of entries (each a path under
// https://blog.example/); broken leaves its last entry unclosed, as a
// feed cut short is served.
func atomFeed(broken bool, entries ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<title>Blog</title>
<link href="https://blog.example/"/>
<link rel="self" href="https://blog.example/feed.xml"/>
<id>https://blog.example/</id>
<updated>2026-01-01T00:00:00Z</updated>
`)
	for _, e := range entries {
		b.WriteString("<entry><title>" + e + "</title><link href=\"https://blog.example/" + e + "\"/><id>https://blog.example/" + e + "</id></entry>\n")
	}
	if broken {
		return strings.TrimSuffix(b.String(), "</entry>\n") + "\n"
	}
	b.WriteString("</feed>\n")
	return b.String()
}

// textStartPage is an HTML page that begins with text, not a tag, so
// that served as text/plain it is read as its source text (one that
// begins with "<" is read as markup whatever its type), under a heading
// (a version stored needs a body of its own): it links to links
// (absolute URLs), and has an image, a table and a list.
func textStartPage(heading string, links ...string) string {
	var b strings.Builder
	b.WriteString(heading + `
<p>Tools and docs</p>
<p><img src="https://img.example/logo.png" alt="Logo"></p>
<table><tr><td>Monday</td><td>9 to 5</td></tr></table>
<ul><li>One</li><li>Two</li></ul>
<ul>
`)
	for _, l := range links {
		b.WriteString(`<li><a href="` + l + `">` + l + "</a></li>\n")
	}
	b.WriteString("</ul>\n")
	return b.String()
}

// relativePage is a page that begins with text, under a heading, and
// links to hrefs written relative.
func relativePage(heading string, hrefs ...string) string {
	var b strings.Builder
	b.WriteString(heading + "\n<ul>\n")
	for _, h := range hrefs {
		b.WriteString(`<li><a class="guide"` + "\n" + `  href="` + h + `">Guide</a></li>` + "\n")
	}
	b.WriteString("</ul>\n")
	return b.String()
}

// pricePage is a page that begins with text, under a heading, with a
// price and the time it was updated at.
func pricePage(heading, price, at string) string {
	return heading + "\n<p class=\"price\">" + price + " EUR</p>\n<p class=\"time\">Updated " + at + "</p>\n"
}

// TestReadDifferently: a page or feed read as markup in one version and
// as its source text in the next (served malformed for one check, or
// served as text/plain one day and text/html the next), fetched in turn
// from a loopback server by the real fetcher, is compared like with like:
// a link sentinel reports no link that the document did not change (the
// URLs of the text, namespace URIs and self links among them, were
// reported added, then removed when the page was fixed), and still
// reports the link that did change; images, tables and lists, which a
// version read as text has none of, are not reported removed and added
// again; keywords are not either. A message about a change of such a
// pair says which version is read as text, and why.
func TestReadDifferently(t *testing.T) {
	// A version stored needs a body of its own: the text/plain ones
	// have their heading with a colon.
	urls := func(heading string, us ...string) string { return heading + "\n" + strings.Join(us, "\n") + "\n" }
	for _, tc := range []struct {
		name     string
		monitor  string
		versions []servedVersion
		want     [][]string // each change's records, "op url"; {srv} is the server's URL
		note     string     // what each message says besides, if anything
	}{
		{"feed broken for one check", "all links", []servedVersion{
			{atomType, atomFeed(false, "a", "b")},
			{atomType, atomFeed(true, "a", "b")},
			{atomType, atomFeed(false, "a", "b")},
		}, nil, ""},
		{"feed broken for one check, an entry added when fixed", "all links", []servedVersion{
			{atomType, atomFeed(false, "a", "b")},
			{atomType, atomFeed(true, "a", "b")},
			{atomType, atomFeed(false, "a", "b", "c")},
		}, [][]string{{"insert https://blog.example/c"}}, ""}, // its link and its id, told once
		{"media type changes", "all links", []servedVersion{
			{htmlType, urls("Downloads", "https://dl.example/a", "https://dl.example/b")},
			{plainType, urls("Downloads:", "https://dl.example/a", "https://dl.example/b")},
			{htmlType, urls("Downloads", "https://dl.example/a", "https://dl.example/b")},
		}, nil, ""},
		{"media type changes, a URL added with it", "all links", []servedVersion{
			{plainType, urls("Downloads:", "https://dl.example/a", "https://dl.example/b")},
			{htmlType, urls("Downloads", "https://dl.example/a", "https://dl.example/b", "https://dl.example/c")},
			{plainType, urls("Downloads:", "https://dl.example/a", "https://dl.example/b", "https://dl.example/c")},
		}, [][]string{{"insert https://dl.example/c"}}, ""},
		{"a page read as text for one check, a link changed when read again", "all links", []servedVersion{
			{htmlType, textStartPage("Opening hours", "https://x.example/a", "https://x.example/b")},
			{plainType, textStartPage("Opening hours:", "https://x.example/a", "https://x.example/b")},
			{htmlType, textStartPage("Opening hours", "https://x.example/a", "https://x.example/c")},
			// Its source writes the URL twice, the target and the text:
			// told once.
		}, [][]string{{"update https://x.example/bhttps://x.example/c"}}, ""},
		{"images", "all images", []servedVersion{
			{htmlType, textStartPage("Opening hours", "https://x.example/a")},
			{plainType, textStartPage("Opening hours:", "https://x.example/a")},
			{htmlType, textStartPage("Opening hours", "https://x.example/a")},
		}, nil, ""},
		{"tables", "table", []servedVersion{
			{htmlType, textStartPage("Opening hours", "https://x.example/a")},
			{plainType, textStartPage("Opening hours:", "https://x.example/a")},
			{htmlType, textStartPage("Opening hours", "https://x.example/a")},
		}, nil, ""},
		{"lists", "list", []servedVersion{
			{htmlType, textStartPage("Opening hours", "https://x.example/a")},
			{plainType, textStartPage("Opening hours:", "https://x.example/a")},
			{htmlType, textStartPage("Opening hours", "https://x.example/a")},
		}, nil, ""},
		{"keywords", "keywords {Monday}", []servedVersion{
			{htmlType, textStartPage("Opening hours", "https://x.example/a")},
			{plainType, textStartPage("Opening hours:", "https://x.example/a")},
			{htmlType, textStartPage("Opening hours", "https://x.example/a")},
		}, nil, ""},
		// A link written relative, added as the page comes to be read
		// differently, is reported resolved, as between two pages; the
		// one both versions write is not.
		{"a relative link added with the type change", "all links", []servedVersion{
			{plainType, relativePage("Guides:", "/a")},
			{htmlType, relativePage("Guides", "/a", "docs/b")},
		}, [][]string{{"insert {srv}/docs/b"}}, ""},
		// A scoped sentinel sees the change in its scope, read in the
		// texts as HTML, and none outside it.
		{"scoped", `any change In css ".price"`, []servedVersion{
			{htmlType, pricePage("Prices", "10", "9:00")},
			{plainType, pricePage("Prices:", "10", "9:05")},
			{htmlType, pricePage("Prices", "12", "9:10")},
		}, [][]string{{"update 10 EUR12 EUR"}}, ""},
		// A text that cannot be read as HTML leaves the scope unapplied:
		// the whole texts are compared, and the message says so.
		{"scope not applied", `any change In css ".price"`, []servedVersion{
			{htmlType, strings.Repeat("<div>", 520) + "\n" + pricePage("Prices", "10", "9:00")},
			{htmlType, pricePage("Prices", "10", "9:05")},
		}, [][]string{{"delete " + strings.Repeat("<div>", 520), "update <p class=\"time\">Updated 9:00</p><p class=\"time\">Updated 9:05</p>"}},
			"The scope could not be applied (the old version's text cannot be read as HTML: parse HTML: elements nested more than 512 deep"},
		// The message names what could not be applied: an ignore list
		// without a scope is no scope, and the two are named both.
		{"ignore list not applied", `any change Ignore css ".time"`, []servedVersion{
			{htmlType, strings.Repeat("<div>", 520) + "\n" + pricePage("Prices", "10", "9:00")},
			{htmlType, pricePage("Prices", "10", "9:05")},
		}, [][]string{{"delete " + strings.Repeat("<div>", 520), "update <p class=\"time\">Updated 9:00</p><p class=\"time\">Updated 9:05</p>"}},
			"both versions were compared as text. The ignore list could not be applied (the old version's text cannot be read as HTML: parse HTML: elements nested more than 512 deep"},
		{"scope and ignore list not applied", `any change In css ".price" Ignore css ".time"`, []servedVersion{
			{htmlType, strings.Repeat("<div>", 520) + "\n" + pricePage("Prices", "10", "9:00")},
			{htmlType, pricePage("Prices", "10", "9:05")},
		}, [][]string{{"delete " + strings.Repeat("<div>", 520), "update <p class=\"time\">Updated 9:00</p><p class=\"time\">Updated 9:05</p>"}},
			"both versions were compared as text. The scope and the ignore list could not be applied (the old version's text cannot be read as HTML: parse HTML: elements nested more than 512 deep"},
		{"a scope and an ignore list of two operands not applied", `any change In css ".price" OR any change Ignore css ".time"`, []servedVersion{
			{htmlType, strings.Repeat("<div>", 520) + "\n" + pricePage("Prices", "10", "9:00")},
			{htmlType, pricePage("Prices", "10", "9:05")},
		}, [][]string{slices.Repeat([]string{"delete " + strings.Repeat("<div>", 520), "update <p class=\"time\">Updated 9:00</p><p class=\"time\">Updated 9:05</p>"}, 2)},
			"both versions were compared as text. The scope and the ignore list could not be applied (the old version's text cannot be read as HTML: parse HTML: elements nested more than 512 deep"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, set := versionServer(t, tc.versions[0])
			now := time.Now().UTC().Truncate(time.Minute)
			db, wh, u := testStore(t)
			s := createSentinel(t, db, spec.NewChecker(now), u, "page", "Create Sentinel page Using "+srv.URL+"/page"+
				" Monitor "+tc.monitor+" Fetch 1 hour Notify By email owner@example.test\n")
			m := &Monitor{Store: db, Warehouse: wh, Fetcher: fetch.New(fetch.Options{AllowPrivateNetworks: true, TotalTimeout: 5 * time.Second}),
				Policy: schedule.Policy{MinInterval: time.Minute}, Now: func() time.Time { return now }}
			runOnce(t, m, 1)
			for _, v := range tc.versions[1:] {
				set(v)
				now = now.Add(2 * time.Hour)
				makeDue(t, db, s, now)
				runOnce(t, m, 1)
			}
			var got [][]string
			for _, c := range changesOf(t, db, s) {
				var records []struct{ Op, Old, New string }
				if err := json.Unmarshal([]byte(c.Records), &records); err != nil {
					t.Fatal(err)
				}
				var rs []string
				for _, r := range records {
					rs = append(rs, strings.ReplaceAll(r.Op+" "+r.Old+r.New, srv.URL, "{srv}"))
				}
				got = append(got, rs)
			}
			if !slices.EqualFunc(got, tc.want, slices.Equal) {
				t.Errorf("changes %q, want %q", got, tc.want)
			}
			msgs := messagesOf(t, db, u, s)
			if len(msgs) != len(tc.want) {
				t.Errorf("%d messages, want %d", len(msgs), len(tc.want))
			}
			// The stored change keeps what its message says of how the
			// versions were read (vigil.Change.Reading), for the
			// dashboard, the API and feeds.
			for _, c := range changesOf(t, db, s) {
				note := c.Reading.Note()
				if c.Reading == nil || !strings.Contains(note, "both versions were compared as text.") || tc.note != "" && !strings.Contains(note, tc.note) {
					t.Errorf("stored change %d: reading %+v, note %q; want one that says %q", c.ID, c.Reading, note, tc.note)
				}
				if !slices.ContainsFunc(msgs, func(m *vigil.Message) bool { return strings.Contains(m.Text, note) }) {
					t.Errorf("stored change %d: note %q, in no message", c.ID, note)
				}
			}
			// Each says that a version could not be read as its type, and
			// how the two were compared.
			for _, msg := range msgs {
				if !strings.Contains(msg.Text, " version is read as text (") || !strings.Contains(msg.Text, "both versions were compared as text.") {
					t.Errorf("the message does not say a version is read as text:\n%s", msg.Text)
				}
				if !strings.Contains(msg.HTML, " version is read as text (") {
					t.Errorf("the message's HTML does not say a version is read as text:\n%s", msg.HTML)
				}
				if tc.note != "" && !strings.Contains(msg.Text, tc.note) {
					t.Errorf("the message does not say %q:\n%s", tc.note, msg.Text)
				}
			}
		})
	}
}

// TestReadDifferentlyDelta: the tree delta a webhook carries for a change
// of a pair read differently compares what the change's records compare,
// the two versions' source texts, and says so (DeltaReading "text"):
// applied to the older version's source text, it gives the newer one's,
// whichever of the two is read as a page; for a pair read alike it
// compares the two as read, and says nothing.
func TestReadDifferentlyDelta(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new servedVersion
		reading  string
	}{
		{"page, then text", servedVersion{htmlType, textStartPage("Opening hours", "https://x.example/a")},
			servedVersion{plainType, textStartPage("Opening hours:", "https://x.example/b")}, vigil.DeltaReadingText},
		{"text, then page", servedVersion{plainType, textStartPage("Opening hours:", "https://x.example/a")},
			servedVersion{htmlType, textStartPage("Opening hours", "https://x.example/b")}, vigil.DeltaReadingText},
		{"two pages", servedVersion{htmlType, textStartPage("Opening hours", "https://x.example/a")},
			servedVersion{htmlType, textStartPage("Opening hours", "https://x.example/b")}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, set := versionServer(t, tc.old)
			now := time.Now().UTC().Truncate(time.Minute)
			db, wh, u := testStore(t)
			s := createSentinel(t, db, spec.NewChecker(now), u, "page", "Create Sentinel page Using "+srv.URL+"/page"+
				" Monitor all links Fetch 1 hour Notify By webhook https://hooks.example.test/x\n")
			m := &Monitor{Store: db, Warehouse: wh, Fetcher: fetch.New(fetch.Options{AllowPrivateNetworks: true, TotalTimeout: 5 * time.Second}),
				Policy: schedule.Policy{MinInterval: time.Minute}, Now: func() time.Time { return now }}
			runOnce(t, m, 1)
			set(tc.new)
			now = now.Add(2 * time.Hour)
			makeDue(t, db, s, now)
			runOnce(t, m, 1)
			msgs := messagesOf(t, db, u, s)
			if len(msgs) != 1 || len(msgs[0].Changes) != 1 {
				t.Fatalf("%d messages, want 1 of one change: %+v", len(msgs), msgs)
			}
			item := msgs[0].Changes[0]
			if item.DeltaReading != tc.reading {
				t.Errorf("DeltaReading %q, want %q", item.DeltaReading, tc.reading)
			}
			read := func(v servedVersion) *tree.Document {
				t.Helper()
				doc, err := warehouse.ParseBody([]byte(v.body), "", v.contentType)
				if tc.reading == vigil.DeltaReadingText {
					doc, err = warehouse.ReadSource([]byte(v.body), "")
				}
				if err != nil {
					t.Fatal(err)
				}
				doc.AssignXIDs()
				return doc
			}
			d, err := delta.DecodeJSON(bytes.NewReader(item.Delta))
			if err != nil {
				t.Fatalf("delta (%v): %s", err, item.Delta)
			}
			got, err := delta.Apply(read(tc.old), d)
			if err != nil {
				t.Fatalf("the delta does not apply to the old version: %v\n%s", err, item.Delta)
			}
			if diff := tree.Diff(got.Root, read(tc.new).Root, tree.Content); diff != "" {
				t.Errorf("the delta does not lead to the new version: %s\n%s", diff, item.Delta)
			}
		})
	}
}

// TestReadDifferentlyDigest: a digest, built from the changes stored in
// its period, says of a change whose versions were read differently what
// its immediate message would say (vigil.Change.Reading): which version
// is read as text, and why, and that both were compared as text. It said
// nothing of it: the stored change had lost it.
func TestReadDifferentlyDigest(t *testing.T) {
	srv, set := versionServer(t, servedVersion{htmlType, textStartPage("Opening hours", "https://x.example/a")})
	now := time.Now().UTC().Truncate(time.Minute)
	db, wh, u := testStore(t)
	s := createSentinel(t, db, spec.NewChecker(now), u, "page", "Create Sentinel page Using "+srv.URL+"/page"+
		" Monitor all links Fetch 1 hour Notify By email owner@example.test Every 1 day\n")
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: fetch.New(fetch.Options{AllowPrivateNetworks: true, TotalTimeout: 5 * time.Second}),
		Policy: schedule.Policy{MinInterval: time.Minute}, Now: func() time.Time { return now }}
	runOnce(t, m, 1)
	set(servedVersion{plainType, textStartPage("Opening hours:", "https://x.example/b")})
	for _, later := range []time.Duration{2 * time.Hour, 24 * time.Hour} {
		now = now.Add(later)
		makeDue(t, db, s, now)
		runOnce(t, m, 1)
	}
	cs := changesOf(t, db, s)
	if len(cs) != 1 || cs[0].Reading == nil {
		t.Fatalf("changes %+v, want one whose versions were read differently", cs)
	}
	msgs := messagesOf(t, db, u, s)
	if len(msgs) != 1 || !msgs[0].Digest {
		t.Fatalf("%d messages, want one digest", len(msgs))
	}
	note := "The new version is read as text (served as text/plain): both versions were compared as text."
	if cs[0].Reading.Note() != note || !strings.Contains(msgs[0].Text, note) || !strings.Contains(msgs[0].HTML, note) {
		t.Errorf("the digest does not say %q:\n%s\n%s", note, msgs[0].Text, msgs[0].HTML)
	}
}

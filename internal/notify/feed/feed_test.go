package feed

import (
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

type fakeStore struct {
	changes    []*vigil.Change
	name       string // the sentinel's; s1 if empty
	generation int64  // the sentinel's feed generation
	reads      int    // calls of FindSentinelByID
}

func (f *fakeStore) FindSentinelByID(_ context.Context, id int64) (*vigil.Sentinel, error) {
	f.reads++
	if id != 1 {
		return nil, vigil.Errorf(vigil.ENOTFOUND, "no sentinel")
	}
	name := f.name
	if name == "" {
		name = "s1"
	}
	return &vigil.Sentinel{ID: 1, Name: name, CreatedAt: time.Unix(1e9, 0), FeedGeneration: f.generation}, nil
}

func (f *fakeStore) FindChanges(_ context.Context, flt vigil.ChangeFilter) ([]*vigil.Change, int, error) {
	return f.changes, len(f.changes), nil
}

func (f *fakeStore) FindResourceByID(_ context.Context, id int64) (*vigil.Resource, error) {
	if id < 1 || id > 2 {
		return nil, vigil.Errorf(vigil.ENOTFOUND, "no resource")
	}
	return &vigil.Resource{ID: id, URL: fmt.Sprintf("https://shop.example/page%d", id)}, nil
}

func TestFeeds(t *testing.T) {
	secret := []byte("k")
	s := &Server{Store: &fakeStore{changes: []*vigil.Change{{ID: 9, SentinelID: 1, Summary: "keyword 5331 appeared", DetectedAt: time.Unix(2e9, 0),
		Records: []byte(`[{"kind":"keyword","op":"insert","new":"<b>5331</b>"}]`)}}}, Secret: secret, BaseURL: "https://vigil.example"}
	mux := http.NewServeMux()
	s.Register(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	get := func(path string) (int, string) {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "sandbox") || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: CSP %q, nosniff %q", path, csp, resp.Header.Get("X-Content-Type-Options"))
		}
		return resp.StatusCode, string(b)
	}
	for _, format := range []string{"atom", "rss"} {
		code, body := get(Path(secret, &vigil.Sentinel{ID: 1}, format))
		if code != 200 || !strings.Contains(body, "keyword 5331 appeared") {
			t.Errorf("%s: %d %s", format, code, body)
		}
		// Links are absolute; the feed links to the sentinel's page, an
		// entry to its change; the records are lines of words, their
		// texts escaped HTML, not raw JSON.
		// Atom has the author RFC 4287 requires; RSS no managing editor
		// without an address.
		wants := []string{"https://vigil.example/changes/9", "keyword added", "lt;b&"}
		if format == "atom" {
			// Its id and self link: the feed's own URL, as always.
			wants = append(wants, "<author>", "<name>Vigil</name>", `<id>https://vigil.example/feeds/1/`, `rel="self"`)
		} else {
			wants = append(wants, "<link>https://vigil.example/sentinels/1</link>", `<guid isPermaLink="false">vigil:change:9</guid>`)
		}
		for _, want := range wants {
			if !strings.Contains(body, want) {
				t.Errorf("%s: no %q in\n%s", format, want, body)
			}
		}
		if format == "rss" && strings.Contains(body, "managingEditor") {
			t.Errorf("rss: a managing editor without an address:\n%s", body)
		}
		if strings.Contains(body, "<b>5331") {
			t.Errorf("%s: a record's text unescaped in\n%s", format, body)
		}
	}
	// A summary quotes the sentinel's expression, which its user wrote:
	// readers take an entry's summary and description as HTML.
	s.Store = &fakeStore{name: "Q&A", changes: []*vigil.Change{{ID: 9, SentinelID: 1, DetectedAt: time.Unix(2e9, 0),
		Summary: `phrase {"<img src=x onerror=alert(1)>"}: 1 node update`}}}
	for _, format := range []string{"atom", "rss"} {
		_, body := get(Path(secret, &vigil.Sentinel{ID: 1}, format))
		var doc struct {
			Subtitle    string `xml:"subtitle"`            // Atom: text
			Description string `xml:"channel>description"` // RSS: HTML
			Entries     []struct {
				Summary string `xml:"summary"`
			} `xml:"entry"`
			Items []struct {
				Description string `xml:"description"`
			} `xml:"channel>item"`
		}
		if err := xml.Unmarshal([]byte(body), &doc); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		var html []string
		for _, e := range doc.Entries {
			html = append(html, e.Summary)
		}
		for _, it := range doc.Items {
			html = append(html, it.Description)
		}
		if len(html) != 1 || strings.Contains(html[0], "<img") || !strings.Contains(html[0], "&lt;img") {
			t.Errorf("%s: the summary as HTML: %q", format, html)
		}
		// The feed's own description: text in Atom, HTML in RSS.
		if got := doc.Subtitle + doc.Description; format == "atom" && got != "Changes found by the sentinel Q&A" ||
			format == "rss" && got != "Changes found by the sentinel Q&amp;A" {
			t.Errorf("%s: the feed's description %q", format, got)
		}
	}
	if code, _ := get("/feeds/1/wrongtoken/atom.xml"); code != 404 {
		t.Errorf("wrong token: %d", code)
	}
	if code, _ := get(Path(secret, &vigil.Sentinel{ID: 2}, "atom")); code != 404 {
		t.Errorf("unknown sentinel: %d", code)
	}
}

// TestFeedBoundsRecords: an entry shows the first records of a large
// change and says how many more there are; a change to every row of a
// large table made entries of megabytes.
func TestFeedBoundsRecords(t *testing.T) {
	var records strings.Builder
	records.WriteString("[")
	for i := range 1000 {
		if i > 0 {
			records.WriteString(",")
		}
		fmt.Fprintf(&records, `{"kind":"table-row","op":"update","old":"row %d","new":"row %d, changed"}`, i, i)
	}
	records.WriteString("]")
	got := itemContent(&vigil.Change{ID: 9, Summary: "table", Records: []byte(records.String())}, "", "https://vigil.example/changes/9")
	if !strings.Contains(got, "row 49") || strings.Contains(got, "row 50") || !strings.Contains(got, "and 950 more records") {
		t.Errorf("entry of 1000 records:\n%s", got)
	}
	small := itemContent(&vigil.Change{ID: 9, Summary: "table", Records: []byte(`[{"kind":"table-row","op":"update","old":"row 1","new":"row 1, changed"}]`)}, "", "https://vigil.example/changes/9")
	if !strings.Contains(small, "row 1") || strings.Contains(small, "more records") {
		t.Errorf("entry of one record:\n%s", small)
	}
	// In words, as the mails say it, not as JSON.
	if want := "<li>row changed: <del>row 1</del> <ins>row 1, changed</ins></li>"; !strings.Contains(small, want) || strings.Contains(small, `"op"`) {
		t.Errorf("entry of one record:\n%s\nwant %s", small, want)
	}
	// 50 records of 2 KB each would make an entry of 100 KB, and a feed
	// of 50 such entries 5 MB.
	var long strings.Builder
	long.WriteString("[")
	for i := range 50 {
		if i > 0 {
			long.WriteString(",")
		}
		fmt.Fprintf(&long, `{"kind":"node","op":"update","old":"row %d %s","new":"row %d %s"}`, i, strings.Repeat("x", 2000), i, strings.Repeat("y", 2000))
	}
	long.WriteString("]")
	got = itemContent(&vigil.Change{ID: 9, Summary: "table", Records: []byte(long.String())}, "", "https://vigil.example/changes/9")
	if len(got) > 2*maxFeedRecordBytes || !strings.Contains(got, "row 0") || !strings.Contains(got, "more records") {
		t.Errorf("entry of 50 long records: %d bytes (bound %d), or no first record, or the rest not counted", len(got), maxFeedRecordBytes)
	}
	// One record longer than an entry holds: no empty list, but a link.
	huge := fmt.Sprintf(`[{"kind":"node","op":"update","old":"%s"}]`, strings.Repeat("x", 2*maxFeedRecordBytes))
	got = itemContent(&vigil.Change{ID: 9, Summary: "text", Records: []byte(huge)}, "", "https://vigil.example/changes/9")
	if strings.Contains(got, "<pre>") || !strings.Contains(got, "1 record, too long for a feed") {
		t.Errorf("entry of one huge record:\n%.300s", got)
	}
}

// TestFeedNamesPages: an entry says which page changed, and so do the
// titles when the entries are about several pages (Using A OR B: two
// entries read "any change: 1 node update" alike).
func TestFeedNamesPages(t *testing.T) {
	one := &vigil.Change{ID: 1, SentinelID: 1, ResourceID: 1, Summary: "any change: 1 node update", DetectedAt: time.Unix(2e9, 0)}
	two := &vigil.Change{ID: 2, SentinelID: 1, ResourceID: 2, Summary: "any change: 1 node update", DetectedAt: time.Unix(2e9+1, 0)}
	s := &Server{Store: &fakeStore{changes: []*vigil.Change{two, one}}}
	f, err := s.Build(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"page2", "page1"} {
		if it := f.Items[i]; !strings.HasSuffix(it.Title, " on https://shop.example/"+want) || !strings.Contains(it.Content, `<a href="https://shop.example/`+want+`">`) {
			t.Errorf("entry %d: title %q, content %s", i, it.Title, it.Content)
		}
	}
	s = &Server{Store: &fakeStore{changes: []*vigil.Change{one}}}
	if f, err = s.Build(context.Background(), 1); err != nil || f.Items[0].Title != one.Summary || !strings.Contains(f.Items[0].Content, "page1") {
		t.Errorf("one page: %v, %+v", err, f.Items[0])
	}
}

// TestFeedEntrySaysHowVersionsWereRead: the entry of a change whose
// versions were read differently says so, as its message did
// (vigil.ChangeReading.Note): which version is read as text and why, and
// what could not be applied to the texts; one read alike says nothing.
func TestFeedEntrySaysHowVersionsWereRead(t *testing.T) {
	c := &vigil.Change{ID: 9, Summary: "any change", Records: []byte(`[]`),
		Reading: &vigil.ChangeReading{AsText: "old", Why: "parse <HTML>", NotApplied: []string{vigil.SelectorIgnore}, ScopeNotApplied: []string{"too deep"}}}
	got := itemContent(c, "", "https://vigil.example/changes/9")
	want := "<p>The old version is read as text (parse &lt;HTML&gt;): both versions were compared as text. The ignore list could not be applied (too deep): the whole texts were compared.</p>"
	if !strings.Contains(got, want) {
		t.Errorf("entry:\n%s\nwant it to hold\n%s", got, want)
	}
	c.Reading = nil
	if got := itemContent(c, "", "https://vigil.example/changes/9"); strings.Contains(got, "read as text") {
		t.Errorf("entry of versions read alike:\n%s", got)
	}
}

package monitor

import (
	"context"
	"fmt"
	"html"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/spec"
)

// sitePages serves, on p's server, a site: a start page "/" linking to
// the pages paths, each a page of text, and returns their URLs.
func sitePages(p *filePages, paths []string, text string) []string {
	var links strings.Builder
	urls := make([]string, len(paths))
	for i, path := range paths {
		fmt.Fprintf(&links, "<a href=%q>%s</a> ", path, path)
		p.srv.set(path, []byte(pageWith(text+" "+path)), false)
		urls[i] = p.base + path
	}
	p.srv.set("/", []byte("<html><body>"+links.String()+"</body></html>"), false)
	return urls
}

// summaryLine returns the first line of a message's text, which says
// where its changes are.
func summaryLine(text string) string {
	line, _, _ := strings.Cut(text, "\n")
	return line
}

// TestSiteDigestNamesPages: a digest of a site's sentinel names the pages
// that changed in its period in its first line, as the digest of a
// sentinel on several pages does, capped at maxPagesNamed with "and N
// more pages", the full list staying in its body (each change's records,
// up to maxListed of them); a page that did not change is not named.
// Before, it named the site alone: "Sentinel pages found changes on the
// site URL/".
func TestSiteDigestNamesPages(t *testing.T) {
	onEachStore(t, func(t *testing.T, open storeOpener) {
		p := newFilePagesSource(t, open, "site URL/", "Monitor any change Fetch 1 hour Notify By email owner@example.test Every 1 day")
		var paths []string
		for i := range maxPagesNamed + 5 {
			paths = append(paths, fmt.Sprintf("/p%02d", i))
		}
		changed := sitePages(p, append(slices.Clone(paths), "/still"), "before")
		changed = changed[:len(paths)]
		p.check(0)
		sitePages(p, append(slices.Clone(paths), "/still"), "after") // the start page as it was
		p.srv.set("/still", []byte(pageWith("before /still")), false)
		p.check(2 * time.Hour)
		p.check(23 * time.Hour) // the period ends
		msgs := p.messages()
		if len(msgs) != 1 || !msgs[0].Digest {
			t.Fatalf("messages %+v, want one digest", msgs)
		}
		msg := msgs[0]
		line := summaryLine(msg.Text)
		prefix := "Sentinel pages found changes on the site " + p.base + "/: "
		if !strings.HasPrefix(line, prefix) || !strings.HasSuffix(line, " and 5 more pages") {
			t.Fatalf("summary line %q, want %q, pages and \" and 5 more pages\"", line, prefix)
		}
		named := strings.Split(strings.TrimSuffix(strings.TrimPrefix(line, prefix), " and 5 more pages"), ", ")
		if len(named) != maxPagesNamed {
			t.Errorf("summary line names %d pages, want %d: %q", len(named), maxPagesNamed, line)
		}
		for _, u := range named {
			if !slices.Contains(changed, u) {
				t.Errorf("summary line names %q, no page that changed: %q", u, line)
			}
		}
		if strings.Contains(line, "/still") || strings.Contains(summaryLine(msg.HTML), "/still") {
			t.Errorf("summary names the page that did not change:\n%s\n%s", line, summaryLine(msg.HTML))
		}
		if got := len(regexp.MustCompile(`<a href="[^"]*/p\d\d">`).FindAllString(summaryLine(msg.HTML), -1)); got != maxPagesNamed ||
			!strings.Contains(summaryLine(msg.HTML), " and 5 more pages</p>") {
			t.Errorf("HTML summary links %d pages, want %d and 5 more pages: %s", got, maxPagesNamed, summaryLine(msg.HTML))
		}
		for _, u := range changed { // the body lists them all
			if !strings.Contains(msg.Text, "~ page changed: "+u+": any change") {
				t.Errorf("the digest's text does not list %s:\n%s", u, msg.Text)
			}
			if !strings.Contains(msg.HTML, "<a href=\""+html.EscapeString(u)+"\">") {
				t.Errorf("the digest's HTML does not list %s", u)
			}
		}
	})
}

// TestSiteSummaryNoPassword: a link a site's page writes with a user
// name and password names no page in a subject or summary line with its
// password (the crawl does not follow it: a guard of that).
func TestSiteSummaryNoPassword(t *testing.T) {
	onEachStore(t, func(t *testing.T, open storeOpener) {
		p := newFilePagesSource(t, open, "site URL/", "Monitor any change Fetch 1 hour Notify By email owner@example.test")
		p.srv.set("/", []byte(pageWith("start")), false)
		p.srv.set("/x", []byte(pageWith("x")), false)
		p.check(0)
		secret := strings.Replace(p.base, "http://", "http://user:s3cretpw@", 1) + "/x"
		p.srv.set("/", []byte(`<html><body><a href="`+secret+`">x</a></body></html>`), false)
		p.check(time.Hour)
		msgs := p.messages()
		if len(msgs) == 0 {
			t.Fatal("no message of the site's change")
		}
		for _, msg := range msgs {
			for _, part := range []string{msg.Subject, summaryLine(msg.Text), summaryLine(msg.HTML)} {
				if strings.Contains(part, "s3cretpw") {
					t.Errorf("a password in %q", part)
				}
			}
		}
	})
}

// TestRenderSummaryHidesPasswords: a message's first line names the pages
// that changed with their passwords hidden (vigil.RedactURL), a site's
// page whose URL holds one (however a crawl came by it) or the page of a
// change told with others'; the site's pages are named at all, which
// before they were not.
func TestRenderSummaryHidesPasswords(t *testing.T) {
	secret := "http://user:s3cretpw@a.test/x"
	page := func(u string) intent.Change {
		return intent.NewPageChange(intent.Update, &intent.PageInfo{URL: u, Summary: "any change: 1 text changed"})
	}
	for _, tc := range []struct {
		name  string
		plan  *plan
		lists [][]intent.Change
		pages []string
		want  string // the first line of the text
	}{
		{"site", &plan{urls: []string{"http://a.test/"}, site: &spec.Site{URL: "http://a.test/"}},
			[][]intent.Change{{page("http://a.test/y"), page(secret)}}, nil,
			"Sentinel s found changes on the site http://a.test/: http://a.test/y and http://user:xxxxx@a.test/x"},
		{"pages", &plan{urls: []string{"http://a.test/y", "http://a.test/z"}},
			[][]intent.Change{nil, nil}, []string{"http://a.test/y", secret},
			"Sentinel s found changes on http://a.test/y and http://user:xxxxx@a.test/x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := &job{s: &vigil.Sentinel{Name: "s"}, plan: tc.plan}
			var items []*vigil.MessageItem
			for range tc.lists {
				items = append(items, &vigil.MessageItem{Change: &vigil.Change{Summary: "any change", DetectedAt: time.Unix(0, 0)}})
			}
			text, markup, _ := (&Monitor{}).render(context.Background(), j, items, tc.lists, tc.pages, nil)
			if got := summaryLine(text); got != tc.want {
				t.Errorf("first line %q, want %q", got, tc.want)
			}
			if strings.Contains(summaryLine(markup), "s3cretpw") || strings.Contains(text, " on "+secret) {
				t.Errorf("a password in the summary or a heading:\n%s\n%s", text, markup)
			}
		})
	}
}

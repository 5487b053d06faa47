package monitor

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/fetch/proxytest"
	"github.com/vigil-web/vigil/spec"
)

// TestSiteMovesToHTTPS: a site sentinel written without a scope whose
// start page comes to redirect (301) to its https form, on the same host,
// each on its scheme's default port, to the same path, follows it: the
// crawl carries on under https, no error is kept, and the previous crawl,
// rekeyed to https, stays the reference, so that only the page that
// changed is reported, not every page removed and added. A move to
// another host, or to https on another port, still fails as a move to
// another directory does (TestSiteStartPageRedirectsElsewhere).
//
// Each case runs with the sentinel's scope written too ("scope
// http://example.com/docs/"), which follows the move to https alone as
// the start page's directory does, and otherwise fails, saying the start
// page leads out of it; before, the crawl kept the start page alone.
//
// The index links a page with an absolute http URL alone
// (withAbsoluteLink), as pages written before a move do: after the move
// it is read at its https form, and not reported no longer reached.
//
// Both sites are real loopback servers reached by a public name and its
// default ports through a loopback proxy (proxytest), loopback allowed by
// the fetcher's configuration as the other tests allow it, and the https
// one's test certificate trusted by the fetcher's transport.
func TestSiteMovesToHTTPS(t *testing.T) {
	for name, tc := range map[string]struct {
		to     string // where each page of /docs/ on http://example.com redirects to
		follow bool
	}{
		"https, same host":         {"https://example.com/docs/", true},
		"https, another host":      {"https://docs.example.com/docs/", false},
		"https, another port":      {"https://example.com:8443/docs/", false},
		"https, another directory": {"https://example.com/v2/docs/", false},
	} {
		for _, written := range []bool{false, true} {
			if written {
				name += ", scope written"
			}
			t.Run(name, func(t *testing.T) { siteMovesToHTTPS(t, tc.to, tc.follow, written) })
		}
	}
}

// siteMovesToHTTPS is a case of TestSiteMovesToHTTPS: the site moves
// from http://example.com/docs/ to, its sentinel written with its scope
// (written) or without.
func siteMovesToHTTPS(t *testing.T, to string, follow, written bool) {
	db, wh, u := testStore(t)
	before := withAbsoluteLink(docsRelease("Run the installer.", "Ask us.", true))
	plain := crawltest.NewSite(t, before)
	secure := crawltest.NewTLSSite(t, before)
	if strings.Contains(to, "/v2/") {
		secure.Moved = movedDocs(before, "/v2/docs/") // the files served there
	}
	p := proxytest.Start(t, map[string]string{
		"example.com:80":        plain.Srv.Listener.Addr().String(),
		"example.com:443":       secure.Srv.Listener.Addr().String(),
		"example.com:8443":      secure.Srv.Listener.Addr().String(),
		"docs.example.com:80":   secure.Srv.Listener.Addr().String(),
		"docs.example.com:443":  secure.Srv.Listener.Addr().String(),
		"docs.example.com:8443": secure.Srv.Listener.Addr().String(),
	})
	now := time.Now().UTC()
	const start = "http://example.com/docs/"
	using := "Using site " + start
	if written {
		using += " scope " + start
	}
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", "Create Sentinel docs "+using+" Every interactive")
	m := siteMonitor(db, wh, fetch.Options{Proxy: p.URL("", "")}, &now)
	pool := x509.NewCertPool()
	pool.AddCert(secure.Srv.Certificate())
	// httptest's certificate names example.com.
	m.Fetcher.(*fetch.Client).Transport().TLSClientConfig = &tls.Config{RootCAs: pool, ServerName: "example.com"}
	runOnce(t, m, 1) // the reference, over http

	// The site moves, and one page changes at once.
	after := withAbsoluteLink(docsRelease("Run the new installer.", "Ask us.", true))
	plain.Mu.Lock()
	plain.Moved = movedDocs(before, to)
	plain.Mu.Unlock()
	secure.Set(after, nil)
	checkAnHourLater(t, m, db, sen, &now)
	sum := stateSummary(t, db, sen)
	if !follow {
		want := "now redirects to " + to
		if written {
			want = "now leads to " + to + ", out of " + start
		}
		if got := sum.CheckErrors[start]; !strings.Contains(got, want) {
			t.Errorf("the last error: %q, want it to say %q", got, want)
		}
		if cs := changesOf(t, db, sen); len(cs) != 0 {
			t.Errorf("%d changes while the start page redirects to %s, want none: %v", len(cs), to, siteRecords(t, cs[0]))
		}
		return
	}
	if len(sum.CheckErrors) != 0 || len(sum.FailingSince) != 0 {
		t.Fatalf("after the move to https: errors %v, failing since %v; want none", sum.CheckErrors, sum.FailingSince)
	}
	cs := changesOf(t, db, sen)
	if len(cs) != 1 {
		t.Fatalf("%d changes after the move to https, want 1 (the guide modified)", len(cs))
	}
	recs := siteRecords(t, cs[0])
	if len(recs) != 1 || recs[0].Op != intent.Update || recs[0].Page == nil || recs[0].Page.URL != "https://example.com/docs/guide.html" {
		t.Fatalf("records after the move to https: %+v, want the guide modified alone, at its https URL", recs)
	}
	if pi := recs[0].Page; pi.OldVersion != 0 || pi.NewVersion == 0 || !strings.Contains(pi.Note, "http://example.com/docs/guide.html") {
		t.Errorf("the guide's record: versions %d to %d, note %q; want no old version of another resource, a new one, and a note naming the http URL",
			pi.OldVersion, pi.NewVersion, pi.Note)
	}

	// The next check compares the https crawls, as any.
	secure.Set(withAbsoluteLink(docsRelease("Run the new installer.", "Ask us anything.", true)), nil)
	checkAnHourLater(t, m, db, sen, &now)
	cs = changesOf(t, db, sen)
	if len(cs) != 2 {
		t.Fatalf("%d changes after the FAQ changed, want 2", len(cs))
	}
	var faq []intent.Change
	for _, c := range cs {
		if rs := siteRecords(t, c); len(rs) == 1 && rs[0].Page != nil && strings.HasSuffix(rs[0].Page.URL, "/faq.html") {
			faq = rs
		}
	}
	if len(faq) != 1 || faq[0].Op != intent.Update || faq[0].Page.URL != "https://example.com/docs/faq.html" || faq[0].Page.OldVersion == 0 {
		t.Errorf("no change of the FAQ alone at its https URL with both versions: %v %v", siteRecords(t, cs[0]), siteRecords(t, cs[1]))
	}
	if sum := stateSummary(t, db, sen); len(sum.CheckErrors) != 0 {
		t.Errorf("errors %v, want none", sum.CheckErrors)
	}
}

// withAbsoluteLink adds to a docs release a page its index links to
// with an absolute http URL on example.com alone.
func withAbsoluteLink(r crawltest.Release) crawltest.Release {
	r["/docs/index.html"] = bytes.Replace(r["/docs/index.html"], []byte("</ul>"),
		[]byte(`<li><a href="http://example.com/docs/extra.html">Extra</a></li></ul>`), 1)
	r["/docs/extra.html"] = []byte(`<html><head><title>Extra</title></head><body><p>Reached by an absolute link.</p></body></html>`)
	return r
}

package main

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestWebChangeOfUnparseablePage: a page the HTML parser refuses (nested
// more than 512 deep) is read as its source text, by the monitor and by
// the dashboard and the API alike, so the change the monitor reports on
// it shows: its change page, the diff frame, the API's diff views; its
// record holds a bounded part of the source.
func TestWebChangeOfUnparseablePage(t *testing.T) {
	deep := func(leaf string) string {
		return strings.Repeat("<div>", 100_000) + leaf + strings.Repeat("</div>", 100_000)
	}
	site := newSite(t)
	site.set("/deep", deep("before"))
	d := startWebDaemon(t)
	sess, status := signIn(t, d.base, testAdminPassword)
	if status != http.StatusSeeOther {
		t.Fatalf("sign in: status %d", status)
	}
	c := &apiClient{t: t, base: d.base, token: sess.newToken("deep")}

	var sen struct{ ID int64 }
	src := "Create Sentinel deep\nUsing " + site.srv.URL + "/deep\nMonitor any change\nFetch 1 hour\n"
	c.want(201, "POST", "/api/v1/sentinels", map[string]string{"source": src}).json(t, &sen)
	path := fmt.Sprintf("/api/v1/sentinels/%d", sen.ID)
	rid, _ := waitVersions(t, c, 1)
	waitFor(t, 60*time.Second, "the first check of sentinel deep", func() bool {
		var checked struct {
			LastCheck time.Time `json:"lastCheck"`
		}
		c.want(200, "GET", path, nil).json(t, &checked)
		return !checked.LastCheck.IsZero()
	})
	site.set("/deep", deep("after"))
	c.want(200, "POST", path+"/check-now", nil)
	changes := waitChanges(t, c, sen.ID, 1)
	changeID := int64(changes[0]["id"].(float64))
	from, to := int64(changes[0]["fromVersion"].(float64)), int64(changes[0]["toVersion"].(float64))

	// Its record holds a bounded part of the source, not the whole of
	// it on both sides (2.2 MB).
	if a := c.want(200, "GET", fmt.Sprintf("/api/v1/changes/%d", changeID), nil); len(a.body) > 64<<10 || !strings.Contains(string(a.body), "after") {
		t.Errorf("the change is %d bytes, want at most 64 KiB showing the new text", len(a.body))
	}

	// The change page leads to the diff page, whose frame shows the diff.
	resp, err := sess.client.Get(fmt.Sprintf("%s/changes/%d", d.base, changeID))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(resp.Request.URL.Path, "/diff") {
		t.Fatalf("change page: status %d at %s", resp.StatusCode, resp.Request.URL)
	}
	page := sess.get(resp.Request.URL.RequestURI())
	// The diff page says that both versions are shown as their source
	// text, and why.
	for _, id := range []string{"from-read-as-text", "to-read-as-text"} {
		if !regexp.MustCompile(`id="` + id + `">Version #\d+ does not parse, so it is shown, and compared, as its source text: parse HTML: elements nested more than 512 deep`).MatchString(page) {
			t.Errorf("the diff page lacks the notice %s:\n%s", id, page)
		}
	}
	m := regexp.MustCompile(`src="(/resources/\d+/diff/frame\?[^"]+)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no diff frame on the change's page:\n%s", page)
	}
	frame := strings.ReplaceAll(m[1], "&amp;", "&")
	if st := sess.status(frame); st != http.StatusOK {
		t.Fatalf("diff frame %s: status %d", frame, st)
	}
	if got := sess.get(frame); !strings.Contains(got, `data-vigil="upd"`) || !strings.Contains(got, "after") {
		t.Errorf("diff frame shows no update to %q: %.300s", "after", got)
	}
	if st := sess.status(fmt.Sprintf("/resources/%d/diff?from=%d&to=%d&view=records", rid, from, to)); st != http.StatusOK {
		t.Errorf("records view: status %d", st)
	}

	// The API's diff of the same versions, in every format.
	diff := fmt.Sprintf("/api/v1/resources/%d/diff?from=%d&to=%d&format=", rid, from, to)
	for _, format := range []string{"xydelta", "json", "html-inline", "html-side-by-side", "html-changes", "text", "records"} {
		if a := c.do("GET", diff+format, nil); a.status != http.StatusOK {
			t.Errorf("diff %s: status %d: %.300s", format, a.status, a.body)
		}
	}
}

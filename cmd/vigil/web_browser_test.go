package main

// Browser tests of the dashboard: Debian's chromium, headless, driven by
// chromedp against the real daemon. They skip when chromium is absent,
// unless VIGIL_TEST_CHROMIUM is set (CI), which makes that a failure.
// Screenshots go to the test's artifact directory (go test -artifacts).

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// chromiumPath is Debian's chromium; VIGIL_CHROMIUM overrides it.
func chromiumPath() string {
	if p := os.Getenv("VIGIL_CHROMIUM"); p != "" {
		return p
	}
	return "/usr/bin/chromium"
}

// browser is one headless chromium tab.
type browser struct {
	t   *testing.T
	ctx context.Context
	dir string // screenshots

	mu      sync.Mutex
	dialogs []string // JavaScript dialogs that opened
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	path := chromiumPath()
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("VIGIL_TEST_CHROMIUM") != "" {
			t.Fatalf("VIGIL_TEST_CHROMIUM is set but %s is missing: apt-get install chromium", path)
		}
		t.Skipf("%s not installed (apt-get install chromium); set VIGIL_TEST_CHROMIUM=1 to make this a failure", path)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1200, 900),
	)
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); acancel() })
	b := &browser{t: t, ctx: ctx, dir: t.ArtifactDir()}
	if err := chromedp.Do(ctx); err != nil { // starts the browser, without a timeout
		t.Fatalf("start chromium: %v", err)
	}
	err := chromedp.Listen(ctx, func(ev any) {
		if d, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			b.mu.Lock()
			b.dialogs = append(b.dialogs, d.Message)
			b.mu.Unlock()
			go chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// do runs steps with a time limit.
func (b *browser) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 45*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		b.shot("failed-" + strings.ReplaceAll(what, " ", "-"))
		b.t.Fatalf("%s: %v", what, err)
	}
}

func runB[T any](b *browser, what string, a chromedp.Action[T]) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 45*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
	return v
}

// openView opens a change's diff page and follows the tab of a view.
func (b *browser) openView(base string, changeID int64, view string) {
	b.t.Helper()
	b.do("open change", chromedp.Navigate(fmt.Sprintf("%s/changes/%d", base, changeID)), chromedp.WaitVisible(chromedp.CSS(".tabs")))
	href := runB(b, "tab "+view, chromedp.AttributeValue(chromedp.CSS(`.tabs a[href*="view=`+view+`"]`), "href"))
	b.do("view "+view, chromedp.Navigate(base+href.Value), chromedp.WaitVisible(chromedp.CSS(`.tabs a[aria-current][href*="view=`+view+`"]`)))
}

// setSource replaces the editor's text as a paste would.
func setSource(text string) chromedp.Action[chromedp.Void] {
	js, _ := json.Marshal(text)
	return void(chromedp.Evaluate[bool](`(e => { e.value = ` + string(js) + `; return e.dispatchEvent(new Event('input')); })(document.getElementById('source'))`))
}

// void drops the value of an action.
func void[T any](a chromedp.Action[T]) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := a(ctx, t)
		return chromedp.Void{}, err
	}
}

// shot saves a full-page screenshot.
func (b *browser) shot(name string) {
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
		return
	}
	p := filepath.Join(b.dir, name+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
		return
	}
	b.t.Logf("screenshot %s", p)
}

func (b *browser) signIn(base string) {
	b.t.Helper()
	b.do("sign in",
		chromedp.Navigate(base+"/sentinels"),
		chromedp.WaitVisible(chromedp.CSS("#email")),
		chromedp.SendKeys(chromedp.CSS("#email"), "admin@localhost"),
		chromedp.SendKeys(chromedp.CSS("#password"), testAdminPassword),
		chromedp.Submit(chromedp.CSS("#password")),
		chromedp.WaitVisible(chromedp.CSS("a.button.primary")), // "New sentinel" on the list
	)
	if loc := runB(b, "location", chromedp.Location()); !strings.HasSuffix(loc, "/sentinels") {
		b.t.Fatalf("after sign-in: at %s", loc)
	}
}

// createToken creates an API token in the dashboard and reads it off the
// page.
func (b *browser) createToken(base string) string {
	b.t.Helper()
	b.do("create token",
		chromedp.Navigate(base+"/tokens"),
		chromedp.SendKeys(chromedp.CSS(`input[name="name"]`), "browser test"),
		chromedp.Click(chromedp.CSS(`form[action="/tokens"] button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS("#new-token")),
	)
	tok := runB(b, "read token", chromedp.Text(chromedp.CSS("#new-token")))
	if !strings.HasPrefix(tok, "vgl_") {
		b.t.Fatalf("token on the page: %q", tok)
	}
	return tok
}

// resourceID returns the id of the resource of url, waiting for its n-th
// version.
func resourceOf(t *testing.T, c *apiClient, url string, n int) int64 {
	t.Helper()
	var id int64
	waitFor(t, 60*time.Second, fmt.Sprintf("%d versions of %s", n, url), func() bool {
		var res struct {
			Items []struct{ ID int64 } `json:"items"`
		}
		c.want(200, "GET", "/api/v1/resources?url="+url, nil).json(t, &res)
		if len(res.Items) == 0 {
			return false
		}
		id = res.Items[0].ID
		var vs struct{ Total int }
		c.want(200, "GET", fmt.Sprintf("/api/v1/resources/%d/versions", id), nil).json(t, &vs)
		return vs.Total >= n
	})
	return id
}

func TestDashboardBrowser(t *testing.T) {
	b := newBrowser(t)
	site := newSite(t)
	site.set("/news", `<html><head><title>News</title></head><body><h1>Town news</h1><p>The bridge opened on Monday.</p></body></html>`)
	d := startWebDaemon(t)

	b.signIn(d.base)
	b.shot("1-sentinels-empty")

	// Keyboard: the first Tab reaches the skip link.
	b.do("tab", chromedp.KeyEvent("\t"))
	if cls := runB(b, "focus", chromedp.Evaluate[string](`document.activeElement.className`)); cls != "skip" {
		t.Errorf("first Tab focuses %q, want the skip link", cls)
	}

	// Write a sentinel with an error: the live check marks it.
	bad := "Create Sentinel news\nUsing " + site.srv.URL + "/news\nMonitor any chnge\nFetch 1 minute"
	b.do("type a sentinel with an error",
		chromedp.Navigate(d.base+"/sentinels/new"),
		chromedp.WaitVisible(chromedp.CSS("#source")),
		setSource(""),
		chromedp.SendKeys(chromedp.CSS("#source"), bad),
		void(chromedp.Poll[bool](`document.getElementById('problems').textContent.includes('chnge')`)),
		chromedp.WaitReady(chromedp.CSS("#backdrop mark")),
		chromedp.WaitVisible(chromedp.CSS("#problems button[data-offset]")),
	)
	if m := runB(b, "mark", chromedp.TextContent(chromedp.CSS("#backdrop mark"))); m != "chnge" {
		t.Errorf("marked %q, want chnge", m)
	}
	if p := runB(b, "problems", chromedp.Text(chromedp.CSS("#problems"))); !strings.Contains(p, "3:13") || !strings.Contains(p, "chnge") {
		t.Errorf("problems list: %q", p)
	}
	if inv := runB(b, "aria-invalid", chromedp.Evaluate[string](`document.getElementById('source').getAttribute('aria-invalid') || ''`)); inv != "true" {
		t.Errorf("aria-invalid = %q", inv)
	}
	// The mark sits under the word: same line as the text's third line.
	b.shot("2-editor-error")
	// Keyboard: the problem's button puts the caret on it.
	b.do("go to the problem", chromedp.Click(chromedp.CSS("#problems button[data-offset]")))
	if sel := runB(b, "selection", chromedp.Evaluate[string](`(e => e.value.slice(e.selectionStart, e.selectionEnd))(document.getElementById('source'))`)); sel != "chnge" {
		t.Errorf("the problem's button selects %q", sel)
	}

	// Fix it and create it.
	good := strings.Replace(bad, "chnge", "change", 1)
	b.do("fix the sentinel",
		setSource(good),
		chromedp.WaitVisible(chromedp.CSS("#problems p.ok")),
	)
	b.shot("3-editor-fixed")
	b.do("create",
		chromedp.Click(chromedp.CSS(`#sentinel-form button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.Search(`//h1[contains(., "Sentinel news")]`)),
	)
	b.shot("4-sentinel")

	c := &apiClient{t: t, base: d.base, token: b.createToken(d.base)}
	var list struct {
		Items []struct{ ID int64 } `json:"items"`
	}
	c.want(200, "GET", "/api/v1/sentinels", nil).json(t, &list)
	if len(list.Items) != 1 {
		t.Fatalf("sentinels: %+v", list)
	}
	sid := list.Items[0].ID
	rid := resourceOf(t, c, site.srv.URL+"/news", 1)

	// The site changes; "Check now" in the dashboard finds it.
	site.set("/news", `<html><head><title>News</title></head><body><h1>Town news</h1><p>The bridge opened on Monday.</p><p>The river rose by two metres.</p></body></html>`)
	b.do("check now",
		chromedp.Navigate(fmt.Sprintf("%s/sentinels/%d", d.base, sid)),
		chromedp.Click(chromedp.Search(`//button[text()="Check now"]`)),
		chromedp.WaitVisible(chromedp.Search(`//h1[contains(., "Sentinel news")]`)),
	)
	changes := waitChanges(t, c, sid, 1)
	cid := int64(changes[0]["id"].(float64))

	// The sentinel list shows the change; the history shows the plot.
	b.do("list", chromedp.Navigate(d.base+"/sentinels"), chromedp.WaitVisible(chromedp.CSS("#sentinels")))
	if row := runB(b, "list row", chromedp.Text(chromedp.CSS("#sentinels tbody tr"))); !strings.Contains(row, "news") || !strings.Contains(row, "active") {
		t.Errorf("sentinel row: %q", row)
	}
	b.do("history", chromedp.Navigate(fmt.Sprintf("%s/resources/%d", d.base, rid)), chromedp.WaitVisible(chromedp.CSS("figure.plot svg rect")))
	b.shot("5-history")

	// The diff view: the page in a sandboxed frame, the insertion marked.
	b.do("diff page",
		chromedp.Navigate(fmt.Sprintf("%s/changes/%d", d.base, cid)),
		chromedp.WaitVisible(chromedp.CSS("#diff-frame")),
		chromedp.Sleep(500*time.Millisecond),
	)
	b.shot("6-diff-inline")
	frame := runB(b, "frame src", chromedp.AttributeValue(chromedp.CSS("#diff-frame"), "src"))
	if sb := runB(b, "sandbox", chromedp.AttributeValue(chromedp.CSS("#diff-frame"), "sandbox")); !sb.Exists || sb.Value != "allow-popups allow-popups-to-escape-sandbox" {
		t.Errorf("the frame's sandbox attribute: %+v", sb)
	}
	b.do("open the frame", chromedp.Navigate(d.base+frame.Value), chromedp.WaitVisible(chromedp.CSS(`[data-vigil="ins"]`)))
	if ins := runB(b, "inserted", chromedp.Text(chromedp.CSS(`[data-vigil="ins"]`))); !strings.Contains(ins, "The river rose by two metres.") {
		t.Errorf("inserted part: %q", ins)
	}
	html := runB(b, "frame html", chromedp.OuterHTML(chromedp.CSS("html")))
	if !strings.Contains(html, "The bridge opened on Monday.") {
		t.Errorf("the frame does not show the page in full:\n%s", html)
	}
	b.shot("7-frame-inline")
	for _, view := range []string{"side", "changes", "records"} {
		b.openView(d.base, cid, view)
		if view == "records" {
			if rec := runB(b, "records", chromedp.Text(chromedp.CSS("#records"))); !strings.Contains(rec, "insert") {
				t.Errorf("records: %q", rec)
			}
			if rec := runB(b, "change records", chromedp.TextContent(chromedp.CSS("#change-records"))); !strings.Contains(rec, "river rose") {
				t.Errorf("the change's own records: %q", rec)
			}
		}
		b.shot("8-diff-" + view)
	}

	// A phone: nothing wider than the screen.
	b.do("phone", chromedp.EmulateViewport(375, 740, chromedp.EmulateMobile), chromedp.Navigate(d.base+"/sentinels"),
		chromedp.WaitVisible(chromedp.CSS("#sentinels")))
	if wide := runB(b, "overflow", chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth + 1`)); wide {
		t.Errorf("the sentinel list is wider than a phone screen")
	}
	b.shot("9-phone")
	if len(b.dialogs) > 0 {
		t.Errorf("dialogs opened: %v", b.dialogs)
	}
}

// TestDashboardForeignHTMLInert: a watched page with <script>, onerror=
// and javascript: links executes nothing in the dashboard. Each payload
// would call home to the test site (and open a dialog); neither happens.
// Its meta refresh stands in a noscript, which a frame without scripts
// would honour: the fetcher follows a page's own refresh as a redirect,
// and ignores one in a noscript, as a browser that runs scripts does.
func TestDashboardForeignHTMLInert(t *testing.T) {
	b := newBrowser(t)
	site := newSite(t)
	home := site.srv.URL + "/pwned"
	site.set("/evil", `<html><body><h1>Offers</h1><p data-vigil="del">Nothing yet.</p></body></html>`)
	d := startWebDaemon(t)
	b.signIn(d.base)
	c := &apiClient{t: t, base: d.base, token: b.createToken(d.base)}
	var sen struct{ ID int64 }
	c.want(201, "POST", "/api/v1/sentinels", map[string]string{"source": "Create Sentinel evil Using " + site.srv.URL + "/evil Monitor any change Fetch 1 minute"}).json(t, &sen)
	rid := resourceOf(t, c, site.srv.URL+"/evil", 1)

	beacon := func(tag string) string { return `new Image().src='` + home + `?` + tag + `';` }
	site.set("/evil", `<html><head><script>`+beacon("head")+`alert('head')</script>
<noscript><meta http-equiv="refresh" content="0;url=`+home+`?refresh"></noscript><base href="`+home+`/"></head><body><h1>Offers</h1><p data-vigil="del">Nothing yet.</p>
<script>`+beacon("script")+`alert('script')</script>
<p>New offer <img src="x" onerror="`+beacon("onerror")+`alert('onerror')"> today</p>
<a id="js" href="javascript:`+beacon("link")+`alert('link')">click here</a>
<a id="js2" href=" JaVaScRiPt:`+beacon("link2")+`">and here</a>
<svg><script>`+beacon("svg")+`</script><a href="javascript:alert(1)"><text>svg</text></a></svg>
<iframe src="javascript:`+beacon("iframe")+`"></iframe><object data="`+home+`?object"></object>
<form action="`+home+`?form"><button id="f">Go</button></form>
<p style="background:url(`+home+`?css)" onclick="`+beacon("click")+`">Styled</p>
<div onmouseover="`+beacon("hover")+`">Hover me</div>
</body></html>`)
	c.want(200, "POST", fmt.Sprintf("/api/v1/sentinels/%d/check-now", sen.ID), nil)
	changes := waitChanges(t, c, sen.ID, 1)
	cid := int64(changes[0]["id"].(float64))
	_ = rid

	for _, view := range []string{"inline", "side", "changes", "records"} {
		b.openView(d.base, cid, view)
		b.do("wait", chromedp.Sleep(time.Second))
		b.shot("evil-" + view)
		if view == "records" {
			continue
		}
		frame := runB(b, "frame src", chromedp.AttributeValue(chromedp.CSS("#diff-frame"), "src"))
		// The frame's document, opened on its own (same URL, same headers).
		b.do("frame "+view, chromedp.Navigate(d.base+frame.Value), chromedp.WaitReady(chromedp.CSS("body")), chromedp.Sleep(500*time.Millisecond))
		html := runB(b, "frame html", chromedp.OuterHTML(chromedp.CSS("html")))
		low := strings.ToLower(html)
		for _, bad := range []string{"<script", "javascript:", "onerror", "onclick", "onmouseover", "<iframe", "<object", "<form", "<base", "http-equiv", "url("} {
			if strings.Contains(low, bad) {
				t.Errorf("view %s: the frame contains %q:\n%s", view, bad, html)
			}
		}
		if strings.Contains(html, `data-vigil="del">Nothing yet.`) {
			t.Errorf("view %s: the page's own data-vigil mark survived", view)
		}
		// Click the links and hover: nothing happens.
		for _, sel := range []string{"#js", "#js2"} {
			if nodes := runB(b, "find "+sel, chromedp.Nodes(chromedp.CSS(sel), chromedp.AtLeast(0))); len(nodes) > 0 {
				b.do("click "+sel, chromedp.Click(chromedp.CSS(sel)), chromedp.Sleep(300*time.Millisecond))
				b.do("back", chromedp.Navigate(d.base+frame.Value), chromedp.WaitReady(chromedp.CSS("body")))
			}
		}
	}
	// The pages that show the change's summary and records escape them.
	for _, p := range []string{fmt.Sprintf("/sentinels/%d", sen.ID), "/sentinels", fmt.Sprintf("/resources/%d", rid)} {
		b.do("page "+p, chromedp.Navigate(d.base+p), chromedp.WaitReady(chromedp.CSS("main")), chromedp.Sleep(300*time.Millisecond))
	}
	time.Sleep(time.Second)
	site.mu.Lock()
	var called []string
	for path, n := range site.hits {
		if strings.HasPrefix(path, "/pwned") && n > 0 {
			called = append(called, path)
		}
	}
	site.mu.Unlock()
	if len(called) > 0 {
		t.Errorf("the foreign page's code ran: the test site was called at %v", called)
	}
	b.mu.Lock()
	if len(b.dialogs) > 0 {
		t.Errorf("the foreign page's code opened dialogs: %v", b.dialogs)
	}
	b.mu.Unlock()

	// Control: the payloads, opened directly from the site, do call home,
	// so the detector works.
	site.set("/control", `<html><body><script>`+beacon("control")+`</script><img src="x" onerror="`+beacon("control")+`"></body></html>`)
	b.do("open a page with the payloads", chromedp.Navigate(site.srv.URL+"/control"), chromedp.Sleep(time.Second))
	site.mu.Lock()
	n := site.hits["/pwned"]
	site.mu.Unlock()
	if n == 0 {
		t.Errorf("control: the page opened directly did not call home; the test detects nothing")
	}
}

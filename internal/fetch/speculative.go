package fetch

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/chromedp/cdproto/fetch"
)

// isSpeculative reports whether e, a request the navigation gate paused
// before the browser sent it, is a page's hint that the browser load a
// document it may show next (<link rel="prefetch">), which the browser
// marks with a Sec-Purpose header of "prefetch" (a header no script can
// set, where one can set Purpose, an older browser's name for it, on its
// own fetch()). The gate fails it unsent: a render shows one page and
// never the next, and the document would be one more request to the
// site, held to no robots.txt. A prefetch the browser makes itself, for a
// page's speculation rules, is not the tab's and never reaches the gate:
// the browser's profile turns them off (browserProfile).
func isSpeculative(e *fetch.EventRequestPaused) bool {
	if e.Request == nil {
		return false
	}
	for k, v := range e.Request.Headers {
		if s, ok := v.(string); ok && strings.EqualFold(k, "Sec-Purpose") &&
			strings.Contains(strings.ToLower(s), "prefetch") {
			return true
		}
	}
	return false
}

// browserPreferences is the browser profile's Preferences file: preloading
// never (Chrome's setting "Preload pages" off; 2 is "never" of
// net.network_prediction_options). With it on, a page's speculation rules
// (<script type="speculationrules">, a Speculation-Rules header) have the
// browser prefetch and prerender the documents they name, requests of the
// browser's own outside any tab, which the navigation gate never sees and
// so never holds to robots.txt, and the browser connects ahead to hosts it
// predicts, none of which a render needs.
const browserPreferences = `{"net": {"network_prediction_options": 2}}`

// browserProfile returns a new directory for the browser's user data,
// holding browserPreferences as its default profile's preferences. The
// caller removes it with removeProfile once the browser has exited.
func browserProfile() (string, error) {
	dir, err := os.MkdirTemp("", "vigil-chromium-")
	if err != nil {
		return "", fmt.Errorf("make the browser's profile: %w", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "Default"), 0o700); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("make the browser's profile: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Default", "Preferences"), []byte(browserPreferences), 0o600); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("make the browser's profile: %w", err)
	}
	return dir, nil
}

// removeProfile removes a browser profile that browserProfile made, once
// its browser has exited, and the directory the browser made for its
// singleton's socket in the system's temporary directory
// (org.chromium.Chromium.*, com.google.Chrome.* for Chrome), which the
// profile's SingletonSocket links to: a browser that is killed, as it is
// when it is stopped, leaves it, and a daemon that restarts its browser
// would gather one each time. Only the two files the browser puts there
// are removed, then the directory if that empties it: the link is the
// browser's to write. (Pointing the browser's TMPDIR into the profile
// instead makes the socket's path too long for a Unix socket wherever
// TMPDIR is itself long, and the browser then fails to start.)
func removeProfile(profile string) {
	if target, err := os.Readlink(filepath.Join(profile, "SingletonSocket")); err == nil {
		if dir := filepath.Dir(target); filepath.Dir(dir) == filepath.Clean(os.TempDir()) {
			os.Remove(filepath.Join(dir, "SingletonSocket"))
			os.Remove(filepath.Join(dir, "SingletonCookie"))
			os.Remove(dir)
		}
	}
	os.RemoveAll(profile)
}

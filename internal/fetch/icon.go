package fetch

import (
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
)

// isIcon reports whether e, a request the navigation gate paused before
// the browser sent it, is the browser's own request for the icon of the
// page its tab shows: /favicon.ico, or what the page's <link rel="icon">
// names. The browser asks for it once the page is loaded, as a request of
// the main frame of resource type Other (not Image) that accepts images;
// the gate fails it unsent, as the product never uses a rendered page's
// icon and the request would be one more of the site's at every render,
// held to no robots.txt.
//
// What the page loads itself is none of these: its images are of type
// Image (<img>, CSS backgrounds), and what else is of type Other (a
// worker's script, a plugin's data, a JSON module) accepts other types
// than images, or anything (*/*).
func isIcon(e *fetch.EventRequestPaused, mainFrame cdp.FrameID) bool {
	if e.ResourceType != network.ResourceTypeOther || e.FrameID != mainFrame || e.Request == nil ||
		e.Request.Method != "GET" {
		return false
	}
	for k, v := range e.Request.Headers {
		if s, ok := v.(string); ok && strings.EqualFold(k, "Accept") {
			return strings.HasPrefix(strings.TrimSpace(s), "image/")
		}
	}
	return false
}

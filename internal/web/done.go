package web

import (
	"net/http"
	"strings"
)

// doneMessages say what a sentinel's form did, by the code the form's
// redirect sets (seeOtherDone) for the page it leads to: a fixed text each,
// so that nothing a user typed, nor a link, can make a page say
// anything else.
var doneMessages = map[string]string{
	"created": "Created the sentinel. Its first check is due now.",
	"saved":   "Saved.",
	"check":   "A check was asked for: it runs as soon as a worker is free; reload the page to see it.",
	"paused":  "Paused: the sentinel is not checked until it is resumed.",
	"resumed": "Resumed.",
	"feed":    "Replaced the feed link: the old one no longer works.",
	"deleted": "Deleted the sentinel and its changes.",
	"zone":    "Saved your time zone: the dates of the sentinels you save from now on are read in it; the sentinels saved before keep theirs until they are saved again.",
}

// doneCookie carries the code of doneMessages from a form's redirect to
// the page it leads to, which shows the message once and clears it. In
// the address (?done=saved), a reload, the back button and a bookmark
// showed the message again. Its value is the code and the page's path,
// "paused:/sentinels/42": any other page that opens first (the redirect
// not followed) neither shows nor clears it.
const doneCookie = "vigil_done"

// doneCookieAge is how long, in seconds, a message waits for its page:
// the redirect is followed at once.
const doneCookieAge = 30

// seeOtherDone redirects a form to the page at to, which says what the
// form did: done, a code of doneMessages. The code goes in a short-lived
// cookie, HttpOnly and SameSite=Strict, for that page alone to take
// (takeDone).
func (s *Server) seeOtherDone(w http.ResponseWriter, r *http.Request, to, done string) error {
	page, _, _ := strings.Cut(to, "#")
	s.setCookie(w, r, doneCookie, done+":"+page, doneCookieAge, http.SameSiteStrictMode)
	return seeOther(w, r, to)
}

// takeDone returns the message r's cookie carries for the page r asks
// for, and clears the cookie: a page says it once. It returns "" for no
// cookie, an unknown code, or a message for another page, whose cookie
// it leaves for that page.
func (s *Server) takeDone(w http.ResponseWriter, r *http.Request) string {
	c, err := r.Cookie(doneCookie)
	if err != nil {
		return ""
	}
	code, page, ok := strings.Cut(c.Value, ":")
	if ok && page != r.URL.Path {
		return ""
	}
	s.setCookie(w, r, doneCookie, "", -1, http.SameSiteStrictMode)
	if !ok {
		return ""
	}
	return doneMessages[code]
}

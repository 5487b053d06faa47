package web

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/vigil-web/vigil"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// pages holds each page template parsed with the layout.
var pages = func() map[string]*template.Template {
	funcs := template.FuncMap{
		// time shows a time in a zone, the view's (view.Loc, the
		// user's): {{time .LastCheck $.Loc}}; nextDigest carries a
		// digest's time with the zone into a template that takes one
		// value.
		"time": fmtTime,
		"nextDigest": func(t time.Time, unknown bool, loc *time.Location, now time.Time) nextDigestAt {
			return nextDigestAt{T: t, Unknown: unknown, Ended: !t.IsZero() && !t.After(now), Loc: loc}
		},
		"datetime": datetime,
		// ago and due say a time against now, the server's clock
		// (view.Now), not the wall's: {{ago .LastCheck $.Now}}.
		"ago":   agoAt,
		"due":   dueAt,
		"bytes": fmtBytes,
		"list":  func(xs ...string) []string { return xs },
		// servedAsText tells a reason a version is read as its source
		// text that is its type ("served as text/plain") from a parse
		// error, for the words around it.
		"servedAsText": func(reason string) bool { return strings.HasPrefix(reason, vigil.ReadAsTextServedAs) },
		// query builds a URL query; its values are escaped here, so the
		// template takes it as a safe URL part.
		"query": func(kv ...any) template.URL {
			v := url.Values{}
			for i := 0; i+1 < len(kv); i += 2 {
				v.Set(fmt.Sprint(kv[i]), fmt.Sprint(kv[i+1]))
			}
			return template.URL(v.Encode())
		},
	}
	layout := template.Must(template.New("layout.html").Funcs(funcs).ParseFS(templateFS, "templates/layout.html"))
	out := map[string]*template.Template{}
	names, _ := fs.Glob(templateFS, "templates/*.html")
	for _, n := range names {
		base := path.Base(n)
		if base == "layout.html" {
			continue
		}
		out[strings.TrimSuffix(base, ".html")] = template.Must(template.Must(layout.Clone()).ParseFS(templateFS, n))
	}
	return out
}()

// faviconHandler answers /favicon.ico, which a browser asks for of every
// document that names no icon (a feed, a download opened in a tab), with
// the dashboard's icon: a 404 there is an error in the console.
func faviconHandler() http.Handler {
	icon, _ := staticFS.ReadFile("static/favicon.svg")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Header().Set("Cache-Control", "public, max-age=86400")
		w.Write(icon)
	})
}

func staticHandler() http.Handler {
	sub, _ := fs.Sub(staticFS, "static")
	fsrv := http.StripPrefix("/static/", http.FileServerFS(sub))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Files only: a directory is not listed.
		name := strings.TrimPrefix(path.Clean(r.URL.Path), "/static")
		name = strings.TrimPrefix(name, "/")
		if fi, err := fs.Stat(sub, name); name == "" || strings.HasSuffix(r.URL.Path, "/") || err != nil || fi.IsDir() {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=3600")
		fsrv.ServeHTTP(w, r)
	})
}

// view is what every page template receives.
type view struct {
	Title string
	User  *vigil.User
	CSRF  string
	Nav   string // the current section: sentinels, resources, notifications, tokens, users
	Flash string
	Data  any
	// Now is the server's clock when the page is rendered (Server.now),
	// which the ago and due helpers say times against.
	Now time.Time
	// Loc is the zone the page shows times in: the user's
	// (Server.userLocation), the deployment's when they have none or
	// no one is signed in. render sets it when nil.
	Loc *time.Location
}

// nextDigestAt is when a sentinel's next digest goes out (zero: at the
// end of its first period, which its next check starts), or Unknown
// when the monitor's state could not be read, with the zone to show it
// in, for the template that takes one value ({{template "next-digest"
// (nextDigest .NextDigest .DigestUnknown $.Loc $.Now)}}). Ended says
// that the period ended before the page's Now: the digest goes out at
// the sentinel's next check (a check late, or a sentinel paused past the
// end).
type nextDigestAt struct {
	T              time.Time
	Unknown, Ended bool
	Loc            *time.Location
}

// pageFunc handles an authenticated dashboard request.
type pageFunc func(w http.ResponseWriter, r *http.Request, sess *session) error

// pageHandler authenticates a dashboard request (by session; an API token
// works too), checks the CSRF token of forms, and shows errors as pages.
// Without a session it answers 401 with the sign-in form.
func (s *Server) pageHandler(h pageFunc) http.Handler {
	return s.secure(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sess, err := s.authenticate(r)
		if err != nil {
			if vigil.ErrorCode(err) != vigil.EUNAUTHORIZED {
				s.errorPage(w, r, nil, err)
				return
			}
			next := ""
			if r.Method == http.MethodGet {
				next = r.URL.RequestURI()
			}
			s.loginPage(w, r, http.StatusUnauthorized, next, "")
			return
		}
		err = parseForm(r) // a form too large is said so, signed in with a token too
		if err == nil {
			err = s.checkCSRF(r, sess)
		}
		if err != nil {
			if vigil.ErrorCode(err) != vigil.EFORBIDDEN {
				s.errorPage(w, r, sess, err)
				return
			}
			s.render(w, r, http.StatusForbidden, "error", &view{Title: "Refused", User: sess.User, CSRF: sess.csrf,
				Data: "This form was sent without a valid CSRF token. Reload the page and try again."})
			return
		}
		if err := h(w, r, sess); err != nil {
			s.errorPage(w, r, sess, err)
		}
	}))
}

func (s *Server) errorPage(w http.ResponseWriter, r *http.Request, sess *session, err error) {
	code := vigil.ErrorCode(err)
	if code == vigil.EINTERNAL {
		s.logger().Error("dashboard request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	title, ok := errorTitles[code]
	if !ok {
		title = "Error"
	}
	v := &view{Title: title, Data: vigil.ErrorMessage(err)}
	if sess != nil {
		v.User, v.CSRF = sess.User, sess.csrf
	}
	s.render(w, r, errorStatus(code), "error", v)
}

// render executes a page into a buffer first, so that a template error
// never sends half a page.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, name string, v *view) {
	var buf bytes.Buffer
	t := pages[name]
	if t == nil {
		panic("web: no template " + name)
	}
	if v.Now.IsZero() {
		v.Now = s.now()
	}
	if v.Loc == nil {
		v.Loc = s.displayLocation(v.User)
	}
	if err := t.ExecuteTemplate(&buf, "layout.html", v); err != nil {
		s.logger().Error("render page", "page", name, "err", err)
		http.Error(w, "Internal error.", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

func (s *Server) page(w http.ResponseWriter, r *http.Request, sess *session, status int, name, title, nav string, data any) error {
	s.render(w, r, status, name, &view{Title: title, User: sess.User, CSRF: sess.csrf, Nav: nav, Data: data})
	return nil
}

func seeOther(w http.ResponseWriter, r *http.Request, to string) error {
	http.Redirect(w, r, to, http.StatusSeeOther)
	return nil
}

// fmtTime is how the dashboard shows a time to a person: in loc (the
// user's zone, view.Loc), named by the zone's abbreviation for the day
// shown, "2026-12-02 16:04:05 JST" ("EDT" or "EST" in New York, as
// daylight saving time has it; "+04" for a zone without one), or "—" for
// the zero time. A nil loc is UTC. Machine-readable times (datetime
// attributes, the API) stay in UTC: see datetime.
func fmtTime(t time.Time, loc *time.Location) string {
	if t.IsZero() {
		return "—"
	}
	if loc == nil {
		loc = time.UTC
	}
	return t.In(loc).Format("2006-01-02 15:04:05 MST")
}

// datetime returns t as a time element's datetime attribute (RFC 3339),
// or "" for the zero time, which has none.
func datetime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// agoAt says when t was, seen at now: "5m ago", "in 2h" for a time
// ahead, "never" for the zero time.
func agoAt(t, now time.Time) string {
	if t.IsZero() {
		return "never"
	}
	d := now.Sub(t)
	if d < 0 {
		return "in " + shortDuration(-d)
	}
	return shortDuration(d) + " ago"
}

// dueAt says when a check at t falls due, seen at now: "in 2h" ahead,
// "due now" in its first minute, "due for 5m" past it (the workers are
// behind), "never" for the zero time.
func dueAt(t, now time.Time) string {
	if t.IsZero() {
		return "never"
	}
	switch d := now.Sub(t); {
	case d < 0:
		return "in " + shortDuration(-d)
	case d < time.Minute:
		return "due now"
	default:
		return "due for " + shortDuration(d)
	}
}

// shortDuration is d, not negative, in its largest whole unit: 10s, 5m,
// 3h (up to two days), 4d.
func shortDuration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

func fmtBytes(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
}

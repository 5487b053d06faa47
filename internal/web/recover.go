package web

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"

	"github.com/vigil-web/vigil"
)

// PanicHTTP is where vigil_panics_total{in} counts a panic of an HTTP
// handler that Recover recovered.
const PanicHTTP = "http"

// Recover returns h with the panics of its handlers recovered, so that a
// bug in one route answers 500 rather than leaving net/http to print the
// panic's value (which may hold a URL and its token) to stderr and drop
// the connection. The daemon wraps its whole routing table in it: the
// API, the dashboard, the feeds, the metrics and the health check.
//
// A panic is logged once, at Error level, through the server's logger,
// with its value redacted (vigil.Recovered: the URLs in it cut to their
// host) and its stack, the request's method and route pattern (never its
// path, which may hold a feed's token, nor its headers); it is counted
// in vigil_panics_total{in="http"} (PanicHTTP). The client gets the
// answer of an internal error, the headers the handler set dropped, with
// the security headers (Secure): the
// JSON error body (EINTERNAL) on an /api/ path, the dashboard's error page
// elsewhere. If the handler had begun its answer, the connection is
// aborted instead (a panic with http.ErrAbortHandler, which net/http
// does not log). A panic with http.ErrAbortHandler itself is passed on as
// it is: a handler's way of aborting, not a bug.
func (s *Server) Recover(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		header := w.Header().Clone() // what the layers outside set (Secure)
		tw := &startedWriter{ResponseWriter: w}
		defer func() {
			rec := recover()
			if rec == nil {
				return
			}
			if err, ok := rec.(error); ok && errors.Is(err, http.ErrAbortHandler) {
				panic(rec)
			}
			pe := vigil.Recovered(rec)
			s.logger().Error("http handler panicked", "method", r.Method, "route", r.Pattern,
				"panic", pe.Value, "stack", string(pe.Stack))
			if s.Metrics != nil {
				s.Metrics.CountPanic(PanicHTTP)
			}
			if tw.started {
				panic(http.ErrAbortHandler)
			}
			hd := w.Header()
			clear(hd)
			for k, v := range header {
				hd[k] = v
			}
			s.secure(http.HandlerFunc(s.internalError)).ServeHTTP(w, r)
		}()
		h.ServeHTTP(tw, r)
	})
}

// internalError answers a request whose handler panicked: the API's
// error body with EINTERNAL on an /api/ path, the dashboard's error page
// elsewhere, status 500 either way. Recover sends it with the security
// headers (Secure).
func (s *Server) internalError(w http.ResponseWriter, r *http.Request) {
	err := vigil.Errorf(vigil.EINTERNAL, "Internal error.")
	if strings.HasPrefix(r.URL.Path, "/api/") {
		var body errorBody
		body.Error.Code, body.Error.Message = vigil.ErrorCode(err), vigil.ErrorMessage(err)
		writeJSON(w, errorStatus(vigil.EINTERNAL), body)
		return
	}
	s.render(w, r, errorStatus(vigil.EINTERNAL), "error", &view{Title: "Error", Data: vigil.ErrorMessage(err)})
}

// startedWriter is a ResponseWriter that records whether the answer has
// begun: its status or a byte of its body sent, or its connection taken.
type startedWriter struct {
	http.ResponseWriter
	started bool
}

func (w *startedWriter) WriteHeader(code int) {
	if code >= 200 || code == http.StatusSwitchingProtocols {
		w.started = true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *startedWriter) Write(b []byte) (int, error) {
	w.started = true
	return w.ResponseWriter.Write(b)
}

// ReadFrom keeps io.Copy's sendfile path of the writer it wraps.
func (w *startedWriter) ReadFrom(src io.Reader) (int64, error) {
	w.started = true
	if rf, ok := w.ResponseWriter.(io.ReaderFrom); ok {
		return rf.ReadFrom(src)
	}
	return io.Copy(struct{ io.Writer }{w.ResponseWriter}, src)
}

// Flush implements http.Flusher, which sends the status.
func (w *startedWriter) Flush() {
	w.started = true
	http.NewResponseController(w.ResponseWriter).Flush()
}

// Hijack implements http.Hijacker: the connection taken, the answer is
// the handler's.
func (w *startedWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	w.started = true
	return http.NewResponseController(w.ResponseWriter).Hijack()
}

// Unwrap returns the writer it wraps, for http.ResponseController.
func (w *startedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

package web

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/vigil-web/vigil"
)

// codes maps each domain error code to its HTTP status: the one table.
var codes = map[string]int{
	vigil.ECONFLICT:         http.StatusConflict,
	vigil.EINVALID:          http.StatusBadRequest,
	vigil.ENOTFOUND:         http.StatusNotFound,
	vigil.EUNAUTHORIZED:     http.StatusUnauthorized,
	vigil.EFORBIDDEN:        http.StatusForbidden,
	vigil.ETOOLARGE:         http.StatusRequestEntityTooLarge,
	vigil.EMETHOD:           http.StatusMethodNotAllowed,
	vigil.ENOTIMPLEMENTED:   http.StatusNotImplemented,
	vigil.EUNAVAILABLE:      http.StatusServiceUnavailable,
	vigil.EUNSUPPORTEDMEDIA: http.StatusUnsupportedMediaType,
	vigil.EPRECONDITION:     http.StatusPreconditionFailed,
	vigil.EINTERNAL:         http.StatusInternalServerError,
}

// errorTitles names what went wrong, by domain error code, as the title
// of the dashboard's error page; another code's page is titled "Error".
var errorTitles = map[string]string{
	vigil.ECONFLICT:         "Conflict",
	vigil.EINVALID:          "Invalid request",
	vigil.ENOTFOUND:         "Not found",
	vigil.EUNAUTHORIZED:     "Not signed in",
	vigil.EFORBIDDEN:        "Refused",
	vigil.ETOOLARGE:         "Too large",
	vigil.EMETHOD:           "Method not allowed",
	vigil.ENOTIMPLEMENTED:   "Not supported",
	vigil.EUNAVAILABLE:      "Busy",
	vigil.EUNSUPPORTEDMEDIA: "Unsupported media type",
	vigil.EPRECONDITION:     "Changed meanwhile",
}

// errorStatus returns the HTTP status of a domain error code.
func errorStatus(code string) int {
	if s, ok := codes[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// Diagnostic is one problem of a sentinel, with its position in the source
// (line and column 1-based, offset and end in bytes, 0 <= Offset <= End <=
// the source's length) or the path of the field of the JSON form. A name
// another of the owner's sentinels has (nameHeld, nameTaken) has both:
// its place in the source, and the field name.
//
// A diagnostic has a place in the source when Line is set (from 1): its
// JSON form then carries offset and end (offset 0 at the source's start),
// and omits them otherwise, where the field name or the message alone
// says where.
type Diagnostic struct {
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Offset  int    `json:"offset"`
	End     int    `json:"end"`
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
}

// MarshalJSON encodes d, with offset and end only when d has a place in
// the source (Line set).
func (d Diagnostic) MarshalJSON() ([]byte, error) {
	type plain Diagnostic
	if d.Line > 0 {
		return json.Marshal(plain(d))
	}
	return json.Marshal(struct {
		plain
		Offset int `json:"offset,omitzero"`
		End    int `json:"end,omitzero"`
	}{plain: plain(d)})
}

// diagnosticsError is an error that carries diagnostics: EINVALID for
// the check's problems, ECONFLICT for a name another of the owner's
// sentinels has (nameHeld, nameTaken) and for an edit the sentinels using
// it refuse (usedConflict). Its code is err's.
type diagnosticsError struct {
	err         *vigil.Error
	Diagnostics []Diagnostic
}

func (e *diagnosticsError) Error() string { return e.err.Error() }
func (e *diagnosticsError) Unwrap() error { return e.err }

// fieldError returns the refusal (EINVALID) of the member field of a
// request's JSON body, or of the field of a form, saying msg: its answer
// names field in its one diagnostic, as every route's refusal of a member
// does (PATCH /api/v1/me, the users and tokens routes, the JSON form of
// a sentinel), so that a client marks the field without reading the
// message; the message names it too, for a reader.
func fieldError(field, msg string) error {
	return &diagnosticsError{err: vigil.Errorf(vigil.EINVALID, "%s", msg), Diagnostics: []Diagnostic{{Field: field, Message: msg}}}
}

// fieldConflict is fieldError's ECONFLICT: the member field of a
// request's JSON body clashes with what is stored (a user's email another
// user has), named in its one diagnostic as a sentinel's name another
// sentinel has is (nameTakenField).
func fieldConflict(field, msg string) error {
	return &diagnosticsError{err: vigil.Errorf(vigil.ECONFLICT, "%s", msg), Diagnostics: []Diagnostic{{Field: field, Message: msg}}}
}

// retryAfterBusy is the Retry-After, in seconds, of an answer that the
// store is busy (EUNAVAILABLE).
const retryAfterBusy = "10"

// errorBody is the JSON form of an error answer.
type errorBody struct {
	Error struct {
		Code        string       `json:"code"`
		Message     string       `json:"message"`
		Diagnostics []Diagnostic `json:"diagnostics,omitempty"`
	} `json:"error"`
}

// writeError answers err as {"error": {"code": ..., "message": ...}} with
// the status of its code. Internal errors are logged; their details never
// reach the client.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	code, msg := vigil.ErrorCode(err), vigil.ErrorMessage(err)
	if code == vigil.EINTERNAL {
		s.logger().Error("http request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	var body errorBody
	body.Error.Code, body.Error.Message = code, msg
	var de *diagnosticsError
	if errors.As(err, &de) {
		body.Error.Diagnostics = de.Diagnostics
	}
	switch code {
	case vigil.EUNAUTHORIZED:
		w.Header().Set("WWW-Authenticate", `Bearer realm="vigil"`)
	case vigil.EUNAVAILABLE:
		// Busy for now (another writer of the store): the same request
		// may be sent again.
		s.logger().Warn("http request: the store is busy", "method", r.Method, "path", r.URL.Path, "err", err)
		w.Header().Set("Retry-After", retryAfterBusy)
	}
	writeJSON(w, errorStatus(code), body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

// handleAPINotFound answers an unknown API path (after authentication, so
// that the API's shape is not shown to strangers).
func (s *Server) handleAPINotFound(mux *http.ServeMux) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if _, err := s.authenticate(r); err != nil {
			s.writeError(w, r, err)
			return
		}
		// A path the API has, with another method: 405 and the methods
		// it has.
		var allow []string
		for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			probe := r.Clone(r.Context())
			probe.Method = m
			if _, pattern := mux.Handler(probe); pattern != "" && pattern != "/api/" {
				allow = append(allow, m)
			}
		}
		if len(allow) > 0 {
			w.Header().Set("Allow", strings.Join(allow, ", "))
			s.writeError(w, r, vigil.Errorf(vigil.EMETHOD, "this path's methods are %s", strings.Join(allow, ", ")))
			return
		}
		// Neither says the path again: a link could make it say anything.
		s.writeError(w, r, vigil.Errorf(vigil.ENOTFOUND, "no API route has this path"))
	}
}

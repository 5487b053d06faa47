package web

import (
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// publicRoutes are the routes of Register that answer without a session
// or an API token: the sign-in form, the static assets and the icon that
// a browser asks for on the sign-in page too. /metrics is one only when
// PublicMetrics is set, which this test leaves off.
var publicRoutes = map[string]bool{
	"GET /login":       true,
	"POST /login":      true,
	"GET /static/":     true,
	"GET /favicon.ico": true,
}

// registeredRoutes returns the pattern of every route Register adds, as
// written in server.go: the first argument of each call of api, page,
// public, mux.Handle and mux.HandleFunc there. A call whose pattern is not
// a string literal (a constant, a variable, a loop over a table) fails the
// test, so that a route written another way is not skipped without a word.
func registeredRoutes(t *testing.T) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "server.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var routes []string
	ast.Inspect(f, func(n ast.Node) bool {
		fn, ok := n.(*ast.FuncDecl)
		if !ok {
			return true
		}
		if fn.Name.Name != "Register" {
			return false
		}
		helpers := map[string]bool{"api": true, "page": true, "public": true}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == 1 {
				if id, ok := as.Lhs[0].(*ast.Ident); ok && helpers[id.Name] {
					return false // the helpers' own mux.Handle(pattern, ...)
				}
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			switch fun := call.Fun.(type) {
			case *ast.Ident:
				if !helpers[fun.Name] {
					return true
				}
			case *ast.SelectorExpr:
				if x, ok := fun.X.(*ast.Ident); !ok || x.Name != "mux" || !strings.HasPrefix(fun.Sel.Name, "Handle") {
					return true
				}
			default:
				return true
			}
			if len(call.Args) == 0 {
				t.Errorf("%s: a route without a pattern", fset.Position(call.Pos()))
				return true
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				t.Errorf("%s: cannot read the pattern of a route that is not a string literal", fset.Position(call.Pos()))
				return true
			}
			p, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Errorf("%s: pattern %s: %v", fset.Position(call.Pos()), lit.Value, err)
				return true
			}
			routes = append(routes, p)
			return true
		})
		return false
	})
	return routes
}

// TestEveryRouteAuthenticated: every route of the routing table (read
// from Register's source, so that a route added later is tried too)
// answers 401 to a request without a session or an API token, and to one
// with a made-up token or a forged session, except the sign-in form, the
// static assets and the icon (publicRoutes).
func TestEveryRouteAuthenticated(t *testing.T) {
	s, _ := newTestServer(t)
	s.Metrics = NewMetrics(s.Store)
	mux := http.NewServeMux()
	s.Register(mux)
	routes := registeredRoutes(t)
	if len(routes) < 50 {
		t.Fatalf("read %d routes from Register: %v", len(routes), routes)
	}
	// Path wildcards take values that name something, were it there.
	fill := strings.NewReplacer("{id}", "1", "{action}", "pause", "{$}", "")
	for _, route := range routes {
		if publicRoutes[route] {
			continue
		}
		method, path, ok := strings.Cut(route, " ")
		if !ok { // "/api/": every method
			method, path = http.MethodGet, route+"v1/unknown"
		}
		path = fill.Replace(path)
		for name, set := range map[string]func(*http.Request){
			"nothing":        func(*http.Request) {},
			"unknown token":  func(r *http.Request) { r.Header.Set("Authorization", "Bearer vgl_made_up") },
			"forged session": func(r *http.Request) { r.AddCookie(&http.Cookie{Name: sessionCookie, Value: "AAAA.BBBB"}) },
		} {
			r := httptest.NewRequest(method, path, strings.NewReader("name=x"))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			set(r)
			w := httptest.NewRecorder()
			mux.ServeHTTP(w, r)
			if w.Code != http.StatusUnauthorized {
				t.Errorf("%s (%s %s) with %s: %d, want 401", route, method, path, name, w.Code)
			}
		}
	}
}

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
// public and mux.Handle there.
func registeredRoutes(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "server.go", nil, 0)
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
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			switch fun := call.Fun.(type) {
			case *ast.Ident:
				if fun.Name != "api" && fun.Name != "page" && fun.Name != "public" {
					return true
				}
			case *ast.SelectorExpr:
				if x, ok := fun.X.(*ast.Ident); !ok || x.Name != "mux" || fun.Sel.Name != "Handle" {
					return true
				}
			default:
				return true
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if p, err := strconv.Unquote(lit.Value); err == nil {
				routes = append(routes, p)
			}
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

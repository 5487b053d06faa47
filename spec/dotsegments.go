package spec

import "strings"

// removeDotSegments resolves the "." and ".." segments of an escaped
// absolute path (RFC 3986 section 5.2.4), those spelt with "%2e" or "%2E"
// too, which name the same segment: "/a/./b/../c" is "/a/c", and a ".."
// past the root stays at the root. A path ending in a dot segment keeps
// its trailing slash ("/a/b/.." is "/a/"). vigil.CanonicalURL, the key
// of a page's resource, applies the same rule: a sentinel's URL and its
// resource's name one path.
func removeDotSegments(p string) string {
	if !strings.HasPrefix(p, "/") || !strings.Contains(p, ".") && !strings.Contains(strings.ToLower(p), "%2e") {
		return p
	}
	dot := func(seg string) string { return strings.ReplaceAll(strings.ToLower(seg), "%2e", ".") }
	in := strings.Split(p, "/")[1:]
	out := make([]string, 0, len(in))
	for i, seg := range in {
		last := i == len(in)-1
		switch dot(seg) {
		case ".":
			if last {
				out = append(out, "")
			}
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, seg)
		}
	}
	return "/" + strings.Join(out, "/")
}

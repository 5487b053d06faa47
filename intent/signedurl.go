package intent

import (
	"net/url"
	"slices"
	"strings"
)

// A CDN or a cloud store serves a private image or file at a signed URL:
// its address with query parameters that sign it and say when the
// signature expires, which a page gets anew at every fetch. They are not
// content (as a meta's absolute URL is none: isReaderMeta), so an image
// whose URL differs only in them is the same image, for any change (an
// src attribute) and for images (the image's source), and a link (a
// signed download link) the same link, for any change (an href) and for
// links (the link's target); a change's record names the URL as the page
// has it. A change of the path, or of any other parameter, is still a
// change. The signing
// parameters, by their names in any case:
//
//   - AWS Signature Version 4: every X-Amz-* (X-Amz-Signature,
//     X-Amz-Date, X-Amz-Expires, X-Amz-Credential, X-Amz-Security-Token,
//     X-Amz-SignedHeaders, X-Amz-Algorithm).
//   - Google Cloud Storage V4: every X-Goog-*.
//   - Where the query holds a Signature (CloudFront, AWS Signature
//     Version 2, Google's V2): Signature, Expires, Key-Pair-Id, Policy,
//     AWSAccessKeyId and GoogleAccessId.
//   - Where the query holds a sig (an Azure shared access signature):
//     sig and the SAS fields (signingSASParams: sv, se, st, sp, sr, spr,
//     ss, srt, si, the user delegation key's sk*, the response headers'
//     rsc*), which are ordinary parameters on another URL.
var (
	signingPrefixes  = []string{"x-amz-", "x-goog-"}
	signedWith       = []string{"signature", "expires", "key-pair-id", "policy", "awsaccesskeyid", "googleaccessid"}
	signingSASParams = []string{
		"sig", "sv", "ss", "srt", "sp", "se", "st", "spr", "sr", "si", "sdd", "sip",
		"skoid", "sktid", "skt", "ske", "sks", "skv", "saoid", "suoid", "scid",
		"rscc", "rscd", "rsce", "rscl", "rsct",
	}
)

// unsignedURL returns u, a URL as written or resolved, without its
// signing parameters (see above), the others kept in their order and
// spelling; u itself when it has none.
func unsignedURL(u string) string {
	q := strings.IndexByte(u, '?')
	if q < 0 {
		return u
	}
	query, frag := u[q+1:], ""
	if h := strings.IndexByte(query, '#'); h >= 0 {
		query, frag = query[:h], query[h:]
	}
	params := strings.Split(query, "&")
	names := make([]string, len(params))
	signed, sas := false, false
	for i, p := range params {
		name, _, _ := strings.Cut(p, "=")
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		names[i] = strings.ToLower(name)
		signed = signed || names[i] == "signature"
		sas = sas || names[i] == "sig"
	}
	kept := params[:0:0]
	for i, p := range params {
		if !isSigningParam(names[i], signed, sas) {
			kept = append(kept, p)
		}
	}
	if len(kept) == len(params) {
		return u
	}
	out := u[:q]
	if len(kept) > 0 {
		out += "?" + strings.Join(kept, "&")
	}
	return out + frag
}

// isSigningParam reports whether a query parameter called name (in lower
// case) signs its URL, in a query that holds a Signature (signed) or a
// sig (sas).
func isSigningParam(name string, signed, sas bool) bool {
	for _, p := range signingPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return signed && slices.Contains(signedWith, name) || sas && slices.Contains(signingSASParams, name)
}

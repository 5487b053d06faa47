package spec_test

import (
	"fmt"
	"time"

	"github.com/vigil-web/vigil/spec"
)

// Parse a file of sentinels, check them for one owner, and print what the
// checker resolved: the inherited clauses, the lifespan and the canonical
// form of the complete sentinel.
func Example() {
	src := `
# Scenario 1 and 3 of the WebVigiL thesis.
Create Sentinel s1 Using http://www.uta.edu/class/schedule
	Monitor keyword (5331, 5324)
	Fetch 1 day
	From 12/02/02 To 01/02/03
	Notify By email jill@aol.com Every best effort

Create Sentinel s3 Using s1
	Monitor phrase ("Optical Network") AND NOT all links In css "nav"
`
	f, err := spec.Parse("jill.ssl", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	c := spec.NewChecker(time.Date(2002, 11, 1, 12, 0, 0, 0, time.UTC))
	checked, err := c.CheckFile(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	s3 := checked[1]
	fmt.Println("inherits from", s3.Parent+":", s3.Inherited)
	fmt.Println("watches", s3.URLs[0], "from", s3.Start.Format("2006-01-02"), "to", s3.End.Format("2006-01-02"))
	fmt.Print(spec.Print(s3.Sentinel))
	// Output:
	// inherits from s1: [Fetch From To Notify Every]
	// watches http://www.uta.edu/class/schedule from 2002-12-02 to 2003-01-02
	// Create Sentinel s3 Using s1
	// 	Monitor phrase {"Optical Network"} AND NOT all links In css "nav"
	// 	Fetch 1 day
	// 	From 12/02/2002 To 01/02/2003
	// 	Notify By email jill@aol.com
	// 	Every best effort
	// 	Compare pairwise
}

// Errors come sorted by position, in the format compilers use.
func ExampleParse_errors() {
	src := "Create Sentinel s1 Using http://a.example\n\tMonitor all links AND\n\tFetch 3 year\n"
	_, err := spec.Parse("bad.ssl", []byte(src))
	for _, e := range err.(spec.ErrorList) {
		fmt.Println(e)
	}
	// Output:
	// bad.ssl:3:2: expected change type (any change, all links, all images, all words, keywords, phrase, table, list, regular expression, value), found "Fetch"
	// bad.ssl:3:10: unknown time unit "year" (want second, minute, hour, day, week or month)
}

// A checker used incrementally: the daemon stores sentinels one at a time
// and checks each new one against those of the same owner.
func ExampleChecker_Lookup() {
	store := map[string]*spec.Stored{}
	now := time.Date(2003, 6, 1, 12, 0, 0, 0, time.UTC)
	c := &spec.Checker{Now: now, Lookup: func(name string) *spec.Stored { return store[name] }}

	s1, _ := spec.ParseSentinel("", []byte("Create Sentinel s1 Using http://a.example From Now To Now + 30 day"))
	ch, err := c.Check(s1)
	if err != nil {
		fmt.Println(err)
		return
	}
	store["s1"] = &spec.Stored{Checked: ch, Started: now.Add(-time.Hour)}

	s2, _ := spec.ParseSentinel("", []byte("Create Sentinel s2 Using http://b.example From start(s1) To end(s1)"))
	_, err = c.Check(s2)
	fmt.Println(err)
	// Output:
	// 1:48: From start(s1) has passed (start(s1) is 06/01/2003 11:00 UTC, not after now, 06/01/2003 12:00 UTC): write a later time, or From Now to start at once
}

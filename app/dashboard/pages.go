package dashboard

// WorkspacePages returns the paths of a workspace's pages below
// /w/{slug}/, in the order of the route table: "" is the overview. The
// browser tests open each one, so that a page added to the table cannot
// go untested.
func WorkspacePages() []string {
	var out []string
	for _, r := range routes {
		if r.workspace {
			out = append(out, r.path)
		}
	}
	return out
}

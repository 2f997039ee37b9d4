"""Element specs: types and their properties, the spec file, its mirror in the catalog."""

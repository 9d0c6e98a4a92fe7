package dev.strata.sdk;

import java.util.Set;

/** The Terraform language's rules for names: identifiers, and the names Terraform reserves. */
final class Names {
    private Names() {}

    static final Set<String> RESERVED_VARIABLE_NAMES =
            Set.of("source", "version", "providers", "count", "for_each", "lifecycle", "depends_on", "locals");
    static final Set<String> RESOURCE_META =
            Set.of("count", "for_each", "provider", "depends_on", "lifecycle", "connection", "provisioner");
    static final Set<String> DATA_META = Set.of("count", "for_each", "provider", "depends_on", "lifecycle");
    static final Set<String> MODULE_META = Set.of("source", "version", "count", "for_each", "providers", "depends_on");
    static final Set<String> PROVIDER_META = Set.of("alias", "version");

    /** HCL's identifier: a letter or underscore, then letters, digits, underscores and dashes. */
    static boolean isIdentifier(String s) {
        if (s == null || s.isEmpty()) {
            return false;
        }
        int first = s.codePointAt(0);
        if (!(Character.isUnicodeIdentifierStart(first) || first == '_')) {
            return false;
        }
        for (int i = Character.charCount(first); i < s.length(); ) {
            int c = s.codePointAt(i);
            if (!(Character.isUnicodeIdentifierPart(c) && !Character.isIdentifierIgnorable(c) || c == '-')) {
                return false;
            }
            i += Character.charCount(c);
        }
        return true;
    }

    /** A name as it appears in a message: quoted, with what cannot be printed escaped. */
    static String quoted(String s) {
        return Render.quote(s, false);
    }
}

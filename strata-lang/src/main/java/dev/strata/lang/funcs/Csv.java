package dev.strata.lang.funcs;

import java.util.ArrayList;
import java.util.List;

/** An RFC 4180 reader in the manner of Go's encoding/csv: quoted fields, doubled quotes, CRLF. */
final class Csv {
    private Csv() {}

    static List<List<String>> parse(String s) {
        List<List<String>> rows = new ArrayList<>();
        int i = 0;
        int line = 1;
        while (i < s.length()) {
            List<String> row = new ArrayList<>();
            if (s.charAt(i) == '\n' || s.startsWith("\r\n", i)) {
                i += s.charAt(i) == '\n' ? 1 : 2;
                line++;
                continue;
            }
            while (true) {
                StringBuilder f = new StringBuilder();
                if (i < s.length() && s.charAt(i) == '"') {
                    i++;
                    while (true) {
                        if (i >= s.length()) {
                            throw FunctionError.call(
                                    "CSV parse error on line " + line + ": extraneous or missing \" in quoted-field");
                        }
                        char c = s.charAt(i);
                        if (c == '"') {
                            if (i + 1 < s.length() && s.charAt(i + 1) == '"') {
                                f.append('"');
                                i += 2;
                                continue;
                            }
                            i++;
                            break;
                        }
                        if (c == '\n') {
                            line++;
                        }
                        f.append(c);
                        i++;
                    }
                    if (i < s.length() && s.charAt(i) != ',' && s.charAt(i) != '\n' && !s.startsWith("\r\n", i)) {
                        throw FunctionError.call(
                                "CSV parse error on line " + line + ": extraneous or missing \" in quoted-field");
                    }
                } else {
                    while (i < s.length() && s.charAt(i) != ',' && s.charAt(i) != '\n' && !s.startsWith("\r\n", i)) {
                        if (s.charAt(i) == '"') {
                            throw FunctionError.call(
                                    "CSV parse error on line " + line + ": bare \" in non-quoted-field");
                        }
                        f.append(s.charAt(i));
                        i++;
                    }
                }
                row.add(f.toString());
                if (i < s.length() && s.charAt(i) == ',') {
                    i++;
                    continue;
                }
                break;
            }
            if (i < s.length()) {
                i += s.charAt(i) == '\n' ? 1 : 2;
            }
            line++;
            rows.add(row);
        }
        return rows;
    }
}

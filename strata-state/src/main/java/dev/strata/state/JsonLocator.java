package dev.strata.state;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.strata.hcl.SourcePos;
import java.io.IOException;
import java.util.List;

/**
 * Finds where a value sits in JSON source, given its path (member names and array indexes). The tree
 * keeps no positions, which keeps 100 MB states small; only the rare error path pays for a second scan.
 */
final class JsonLocator {
    private JsonLocator() {}

    /** The position of the value at {@code path} (of the member name for object members), or of its deepest existing ancestor. */
    static SourcePos locate(byte[] src, List<Object> path) {
        try (JsonParser p = JsonReader.FACTORY.createParser(src)) {
            JsonToken t = p.nextToken();
            SourcePos best = JsonReader.pos(p.currentTokenLocation());
            for (Object step : path) {
                if (step instanceof String key) {
                    if (t != JsonToken.START_OBJECT) {
                        return best;
                    }
                    boolean found = false;
                    while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                        if (p.currentName().equals(key)) {
                            best = JsonReader.pos(p.currentTokenLocation());
                            t = p.nextToken();
                            found = true;
                            break;
                        }
                        p.nextToken();
                        p.skipChildren();
                    }
                    if (!found) {
                        return best;
                    }
                } else {
                    int index = (Integer) step;
                    if (t != JsonToken.START_ARRAY) {
                        return best;
                    }
                    for (int i = 0; i < index; i++) {
                        t = p.nextToken();
                        if (t == JsonToken.END_ARRAY) {
                            return best;
                        }
                        p.skipChildren();
                    }
                    t = p.nextToken();
                    if (t == JsonToken.END_ARRAY) {
                        return best;
                    }
                    best = JsonReader.pos(p.currentTokenLocation());
                }
            }
            return best;
        } catch (IOException e) {
            return SourcePos.START;
        }
    }
}

package dev.strata.hcl.json;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.HclFile;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.json.JsonValue.JArray;
import dev.strata.hcl.json.JsonValue.JInvalid;
import dev.strata.hcl.json.JsonValue.JObject;
import java.util.List;

/**
 * Entry points of the JSON syntax ({@code .tf.json}), HashiCorp's "HCL JSON Syntax Specification":
 * the same {@link dev.strata.hcl.Body}/{@link Expression} model as native syntax. None of them throws
 * for any input: problems are returned as diagnostics beside a best-effort result.
 */
public final class JsonSyntax {
    private JsonSyntax() {}

    /**
     * Parses a whole {@code .tf.json} file. The root must be an object, or an array of objects whose
     * properties are merged.
     */
    public static Result<HclFile> parse(byte[] src, String filename) {
        JsonParser.Parsed p = JsonParser.parse(src, filename, SourcePos.START);
        Diagnostics diags = p.diagnostics();
        JsonValue root = p.value();
        if (!(root instanceof JObject || root instanceof JArray)) {
            if (!(root instanceof JInvalid)) {
                diags = diags.with(Diagnostic.error(
                        "Root value must be object",
                        "The root value in a JSON-based configuration must be either a JSON object or a JSON array "
                                + "of objects; found a " + root.kind() + ".",
                        root.startRange()));
            }
            // An empty body, so a caller decoding it gets no second message about the same problem.
            SourceRange none = SourceRange.at(filename, SourcePos.START);
            root = new JObject(List.of(), none, none);
        }
        return Result.of(new HclFile(filename, src, new JsonBody(root)), diags);
    }

    /**
     * Parses a standalone JSON value as an expression (for example a JSON-valued {@code -var}),
     * positioned as if it started at {@code start} in {@code filename}.
     */
    public static Result<JsonExpression> parseExpression(byte[] src, String filename, SourcePos start) {
        JsonParser.Parsed p = JsonParser.parse(src, filename, start);
        return Result.of(new JsonExpression(p.value()), p.diagnostics());
    }
}

package dev.strata.cli.view;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.cli.version.Version;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Snippet;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.SourceRange;
import dev.strata.provider.ValueJson;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * The messages of Terraform's machine-readable UI streams ({@code plan -json}, {@code apply -json},
 * {@code init -json}): one JSON object a line, each with {@code @level}, {@code @message}, {@code @module},
 * {@code @timestamp} and {@code type}.
 */
public final class UiJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private UiJson() {}

    /** An empty JSON object, for a message's nested parts. */
    static ObjectNode object() {
        return JSON.createObjectNode();
    }

    /** A message of {@code type} at {@code level} ("info", "warn", "error"), for the caller to add its fields to. */
    static ObjectNode message(String level, String text, String type) {
        ObjectNode n = object();
        n.put("@level", level);
        n.put("@message", text);
        n.put("@module", "strata.ui");
        n.put("@timestamp", OffsetDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        n.put("type", type);
        return n;
    }

    /** The first message of every stream: the version of Strata and of the stream's format. */
    static ObjectNode version() {
        ObjectNode v = message("info", "Strata " + Version.current(), "version");
        v.put("terraform", Version.current());
        v.put("ui", "1.2");
        return v;
    }

    /** A {@code diagnostic} message: severity, summary, detail and, where it has one, the range it is about. */
    static ObjectNode diagnostic(Diagnostic d) {
        return diagnostic(d, null);
    }

    /**
     * A {@code diagnostic} message as {@link #diagnostic(Diagnostic)}, with Terraform's {@code snippet} when the
     * file of its range is among {@code sources} (null: none are).
     */
    static ObjectNode diagnostic(Diagnostic d, DiagnosticRenderer.Sources sources) {
        ObjectNode m = message(
                d.isError() ? "error" : "warn", (d.isError() ? "Error: " : "Warning: ") + d.summary(), "diagnostic");
        diagnosticFields(m.putObject("diagnostic"), d, sources, d.values());
        return m;
    }

    /**
     * The fields of a {@code diagnostic} object as Terraform's JSON streams write them: severity, summary, detail,
     * the range and the {@code snippet} (the block around the range, the source lines it spans, where the range is
     * in them, and {@code values}, the references shown under it) when the range's file is among {@code sources}.
     */
    public static void diagnosticFields(
            ObjectNode x, Diagnostic d, DiagnosticRenderer.Sources sources, List<Diagnostic.ExpressionValue> values) {
        x.put("severity", d.isError() ? "error" : "warning");
        x.put("summary", d.summary());
        x.put("detail", d.detail() == null ? "" : d.detail());
        if (d.address() != null) {
            x.put("address", d.address());
        }
        SourceRange s = d.subject();
        if (s == null) {
            return;
        }
        ObjectNode r = x.putObject("range");
        r.put("filename", s.filename());
        position(r.putObject("start"), s.start());
        // As Terraform's JSON: a place of no width (the end of a file) is given as the one character there.
        SourcePos end = s.end().equals(s.start())
                ? new SourcePos(
                        s.start().line(), s.start().column() + 1, s.start().byteOffset() + 1)
                : s.end();
        position(r.putObject("end"), end);
        byte[] src = sources == null ? null : sources.bytes(s.filename());
        if (src == null) {
            return;
        }
        Snippet snippet = Snippet.of(src, s, d.context());
        ObjectNode sn = x.putObject("snippet");
        String context = new DiagnosticRenderer(sources, false, 80).contextString(s);
        if (context == null) {
            sn.putNull("context");
        } else {
            sn.put("context", context);
        }
        sn.put("code", snippet.code());
        sn.put("start_line", snippet.startLine());
        sn.put("highlight_start_offset", snippet.highlightStart());
        sn.put("highlight_end_offset", snippet.highlightEnd());
        var shown = sn.putArray("values");
        for (Diagnostic.ExpressionValue v : values) {
            shown.addObject().put("traversal", v.traversal()).put("statement", v.statement());
        }
        if (d.functionCall() != null) {
            functionCall(sn.putObject("function_call"), d.functionCall().name());
        }
    }

    /**
     * The function a failed call was to: its name as called and, for a built-in, its signature (a provider's
     * function has none here, as in Terraform's).
     */
    private static void functionCall(ObjectNode x, String calledAs) {
        x.put("called_as", calledAs);
        FunctionSignatures.builtin(calledAs).ifPresent(sig -> {
            ObjectNode s = x.putObject("signature");
            s.put("name", calledAs.startsWith("core::") ? calledAs.substring("core::".length()) : calledAs);
            var params = s.putArray("params");
            sig.parameters().forEach(p -> parameter(params.addObject(), p));
            sig.variadic().ifPresent(p -> parameter(s.putObject("variadic_param"), p));
            s.set("return_type", ValueJson.typeNode(sig.returnType()));
        });
    }

    /** As Terraform's diagnostics describe a parameter: unlike {@code metadata functions}, not whether it takes null. */
    private static void parameter(ObjectNode x, MetadataView.Parameter p) {
        x.put("name", p.name());
        x.set("type", ValueJson.typeNode(p.type()));
    }

    private static void position(ObjectNode p, SourcePos pos) {
        p.put("line", pos.line());
        p.put("column", pos.column());
        p.put("byte", pos.byteOffset());
    }
}

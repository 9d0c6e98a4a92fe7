package dev.strata.sdk.gen;

import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.NestedBlock;
import dev.strata.provider.NestingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Writes the class for one resource type, data source or provider configuration: a field holding
 * the SDK declaration, typed setters that are the arguments' builder, getters whose values carry
 * the lineage {@code TYPE.NAME.attribute}, and per distinct nested block structure a nested class
 * (the block's builder) with a nested {@code Ref} (the block's attributes read through the lineage).
 */
final class ClassEmitter {
    enum Kind {
        RESOURCE("dev.strata.sdk.Resource", "resource"),
        DATA("dev.strata.sdk.DataSource", "dataSource"),
        PROVIDER("dev.strata.sdk.Provider", "provider");

        final String sdkType;
        final String accessor;

        Kind(String sdkType, String accessor) {
            this.sdkType = sdkType;
            this.accessor = accessor;
        }
    }

    // Methods every generated class has or inherits; an attribute of that name gets another one.
    private static final Set<String> MEMBERS = Set.of(
            "getClass",
            "hashCode",
            "equals",
            "toString",
            "notify",
            "notifyAll",
            "wait",
            "clone",
            "finalize",
            "resource",
            "dataSource",
            "provider",
            "alias",
            "block",
            "asAny");
    private static final String CONSUMER = "java.util.function.Consumer";
    private static final String STRING = "java.lang.String";

    private final SourceWriter w = new SourceWriter();
    // How getters' docs show the lineage of the top-level declaration's attributes ({@code aws_vpc.NAME.}).
    private String lineage = "";
    // Each distinct nested block structure, in discovery order, with its class name; the block type name
    // it was first found under; the classes whose Ref is reachable.
    private final Map<Block, String> shapes = new LinkedHashMap<>();
    private final Map<Block, String> firstName = new HashMap<>();
    private final Set<String> readable = new HashSet<>();

    /** The whole compilation unit of a top-level class. */
    static String compilationUnit(
            Kind kind,
            String header,
            String pkg,
            String className,
            String tfName,
            Block block,
            List<String> classDoc,
            List<String> constants) {
        ClassEmitter e = new ClassEmitter();
        e.w.line("// " + header);
        e.w.line("package " + pkg + ";");
        e.w.blank();
        e.topLevel(kind, className, tfName, block, classDoc, constants);
        return e.w.toString();
    }

    private void topLevel(
            Kind kind, String className, String tfName, Block block, List<String> classDoc, List<String> constants) {
        w.doc(classDoc);
        if (block.deprecated()) {
            w.line("@java.lang.Deprecated");
        }
        w.line("@dev.strata.sdk.Binding(" + Javadoc.literal(tfName) + ")");
        w.open("public final class " + className + " {");
        for (String c : constants) {
            w.line(c);
        }
        w.blank();
        w.line("private final " + kind.sdkType + " body;");
        w.blank();
        switch (kind) {
            case RESOURCE -> {
                w.doc(List.of("Declares {@code resource " + Javadoc.escape(quote(tfName)) + " NAME} in the stack."));
                w.open("public " + className + "(dev.strata.sdk.Stack stack, " + STRING + " name) {");
                w.line("this.body = stack.resource(TYPE, name);");
            }
            case DATA -> {
                w.doc(List.of("Declares {@code data " + Javadoc.escape(quote(tfName)) + " NAME} in the stack."));
                w.open("public " + className + "(dev.strata.sdk.Stack stack, " + STRING + " name) {");
                w.line("this.body = stack.data(TYPE, name);");
            }
            case PROVIDER -> {
                w.doc(List.of("Declares a {@code provider " + Javadoc.escape(quote(tfName))
                        + "} configuration in the stack; give it an {@link #alias} for more than one."));
                w.open("public " + className + "(dev.strata.sdk.Stack stack) {");
                w.line("this.body = stack.provider(LOCAL_NAME);");
            }
        }
        w.close();
        w.blank();
        switch (kind) {
            case RESOURCE, DATA ->
                w.doc(List.of(
                        "The declaration itself: for {@code count}, {@code for_each}, {@code depends_on},",
                        (kind == Kind.RESOURCE ? "{@code lifecycle}, " : "")
                                + "{@code provider}, and arguments the schema does not name."));
            case PROVIDER -> w.doc(List.of("The configuration itself, for {@code provider = ...} of a resource."));
        }
        w.open("public " + kind.sdkType + " " + kind.accessor + "() {");
        w.line("return body;");
        w.close();
        if (kind == Kind.PROVIDER) {
            w.blank();
            w.doc(List.of("Names this configuration {@code LOCAL_NAME.alias}."));
            w.open("public " + className + " alias(" + STRING + " alias) {");
            w.line("body.alias(alias);");
            w.line("return this;");
            w.close();
        }
        boolean readable = kind != Kind.PROVIDER;
        lineage = (kind == Kind.DATA ? "data." : "") + tfName + ".NAME.";
        Identifiers.Scope scope = new Identifiers.Scope(Set.of(className, "Ref"));
        discover(block, scope);
        if (readable) {
            markReadable(block);
        }
        members(className, block, true, readable ? "body.attr" : null);
        for (Map.Entry<Block, String> e : shapes.entrySet()) {
            shape(e.getValue(), e.getKey(), firstName.get(e.getKey()), this.readable.contains(e.getValue()));
        }
        w.close();
    }

    /**
     * Setters (when {@code settable}) and getters (when {@code read} names the method giving an
     * attribute's {@code AnyValue}) for a block's attributes and nested block types, in name order.
     */
    private void members(String self, Block block, boolean settable, String read) {
        SortedMap<String, String> methods = methodNames(block);
        for (var e : methods.entrySet()) {
            String tf = e.getKey();
            String m = e.getValue();
            String lit = Javadoc.literal(tf);
            Attribute a = block.attribute(tf);
            if (a != null) {
                List<String> doc = attributeDoc(tf, a);
                if (settable && a.configurable()) {
                    boolean first = true;
                    for (TypeMapping.Setter s : TypeMapping.setters(a.type())) {
                        w.blank();
                        w.doc(
                                first
                                        ? doc
                                        : List.of("Sets {@code " + Javadoc.escape(tf) + "}, see {@link #" + m + "("
                                                + TypeMapping.setters(a.type())
                                                        .get(0)
                                                        .parameter() + ")}."));
                        deprecated(a.deprecated());
                        w.open("public " + self + " " + m + "(" + s.parameter() + " value) {");
                        w.line("body.arg(" + lit + ", " + s.conversion() + ");");
                        w.line("return this;");
                        w.close();
                        first = false;
                    }
                }
                if (read != null) {
                    TypeMapping.Getter g = TypeMapping.getter(a.type());
                    w.blank();
                    w.doc(getterDoc(tf, a, "body.attr".equals(read) ? lineage : null));
                    deprecated(a.deprecated());
                    w.open("public " + g.type() + " " + m + "() {");
                    w.line("return " + read + "(" + lit + ")" + g.view() + ";");
                    w.close();
                }
                continue;
            }
            NestedBlock nb = block.blockType(tf);
            String cls = shapes.get(nb.block());
            boolean dep = nb.block().deprecated();
            if (settable && nb.nesting() != NestingMode.MAP) {
                w.blank();
                w.doc(blockDoc(tf, nb));
                deprecated(dep);
                w.open("public " + self + " " + m + "(" + CONSUMER + "<" + cls + "> settings) {");
                w.line("body.block(" + lit + ", b -> settings.accept(new " + cls + "(b)));");
                w.line("return this;");
                w.close();
            }
            if (read != null) {
                String src = read + "(" + lit + ")";
                String ref = Javadoc.escape(tf);
                switch (nb.nesting()) {
                    case SINGLE -> {
                        w.blank();
                        w.doc(List.of("The {@code " + ref + "} block, read through its lineage."));
                        deprecated(dep);
                        w.open("public " + cls + ".Ref " + m + "() {");
                        w.line("return new " + cls + ".Ref(" + src + ");");
                        w.close();
                    }
                    case LIST -> {
                        w.blank();
                        w.doc(List.of("The {@code " + ref + "} blocks as a list."));
                        deprecated(dep);
                        w.open("public dev.strata.sdk.ListValue " + m + "() {");
                        w.line("return " + src + ".asList();");
                        w.close();
                        w.blank();
                        w.doc(List.of(
                                "The {@code " + ref + "} block at {@code index}: {@code ...." + ref + "[index]}."));
                        deprecated(dep);
                        w.open("public " + cls + ".Ref " + m + "(long index) {");
                        w.line("return new " + cls + ".Ref(" + src + ".get(index));");
                        w.close();
                    }
                    case SET -> {
                        w.blank();
                        w.doc(List.of("The {@code " + ref + "} blocks as a set (a set has no index; use "
                                + "{@code Fn} functions or a {@code for} expression on it)."));
                        deprecated(dep);
                        w.open("public dev.strata.sdk.SetValue " + m + "() {");
                        w.line("return " + src + ".asSet();");
                        w.close();
                    }
                    case MAP -> {
                        w.blank();
                        w.doc(List.of("The {@code " + ref + "} blocks as a map by label."));
                        deprecated(dep);
                        w.open("public dev.strata.sdk.MapValue " + m + "() {");
                        w.line("return " + src + ".asMap();");
                        w.close();
                        w.blank();
                        w.doc(List.of("The {@code " + ref + "} block labelled {@code key}."));
                        deprecated(dep);
                        w.open("public " + cls + ".Ref " + m + "(" + STRING + " key) {");
                        w.line("return new " + cls + ".Ref(" + src + ".key(key));");
                        w.close();
                    }
                }
            }
        }
    }

    /**
     * Finds the distinct block structures under {@code block}, depth first in name order, and names a
     * class for each. A structure the schema repeats (QuickSight's visuals repeat the same formatting
     * blocks thousands of times) gets one class, which keeps the largest resources' sources small.
     */
    private void discover(Block block, Identifiers.Scope scope) {
        for (Map.Entry<String, NestedBlock> e : block.blockTypes().entrySet()) {
            Block b = e.getValue().block();
            if (!shapes.containsKey(b)) {
                shapes.put(b, scope.claimNumbered(Identifiers.type(e.getKey())));
                firstName.put(b, e.getKey());
                discover(b, scope);
            }
        }
    }

    /** The structures reachable from a readable block other than through a set (which has no index). */
    private void markReadable(Block block) {
        for (NestedBlock nb : block.blockTypes().values()) {
            if (nb.nesting() != NestingMode.SET && readable.add(shapes.get(nb.block()))) {
                markReadable(nb.block());
            }
        }
    }

    /** The class of one block structure: its builder, and its {@code Ref} when something can read it. */
    private void shape(String cls, Block block, String tf, boolean refs) {
        w.blank();
        List<String> doc = new ArrayList<>(Javadoc.lines(block.description()));
        if (!doc.isEmpty()) {
            doc.add("<p>");
        }
        doc.add("The content of a {@code " + Javadoc.escape(tf) + "} block (and of every block of the same schema).");
        if (block.deprecated()) {
            doc.add("@deprecated the provider marks this block as deprecated");
        }
        w.doc(doc);
        deprecated(block.deprecated());
        w.line("@dev.strata.sdk.Binding(" + Javadoc.literal(tf) + ")");
        w.open("public static final class " + cls + " {");
        w.line("private final dev.strata.sdk.Block body;");
        w.blank();
        w.open("private " + cls + "(dev.strata.sdk.Block body) {");
        w.line("this.body = body;");
        w.close();
        w.blank();
        w.doc(List.of("The block itself, for arguments the schema does not name."));
        w.open("public dev.strata.sdk.Block block() {");
        w.line("return body;");
        w.close();
        members(cls, block, true, null);
        if (refs) {
            ref(tf, block);
        }
        w.close();
    }

    private void ref(String tf, Block block) {
        w.blank();
        w.doc(List.of("A {@code " + Javadoc.escape(tf) + "} block's attributes, read through its lineage."));
        w.line("@dev.strata.sdk.Binding(" + Javadoc.literal(tf) + ")");
        w.open("public static final class Ref {");
        w.line("private final dev.strata.sdk.AnyValue value;");
        w.blank();
        w.open("private Ref(dev.strata.sdk.AnyValue value) {");
        w.line("this.value = value;");
        w.close();
        w.blank();
        w.doc(List.of("The block's whole object."));
        w.open("public dev.strata.sdk.AnyValue asAny() {");
        w.line("return value;");
        w.close();
        members("Ref", block, false, "value.get");
        w.close();
    }

    private void deprecated(boolean deprecated) {
        if (deprecated) {
            w.line("@java.lang.Deprecated");
        }
    }

    /** Java method names for a block's attributes and block types, claimed in name order. */
    static SortedMap<String, String> methodNames(Block block) {
        Identifiers.Scope scope = new Identifiers.Scope(MEMBERS);
        SortedMap<String, String> out = new TreeMap<>();
        TreeSet<String> all = new TreeSet<>(block.attributes().keySet());
        all.addAll(block.blockTypes().keySet());
        for (String n : all) {
            out.put(n, scope.claim(Identifiers.method(n), Identifiers.raw(n)));
        }
        return out;
    }

    private static List<String> attributeDoc(String tf, Attribute a) {
        List<String> doc = new ArrayList<>(Javadoc.lines(a.description()));
        if (!doc.isEmpty()) {
            doc.add("<p>");
        }
        doc.add("{@code " + Javadoc.escape(tf) + "}: " + Javadoc.escape(a.type().typeExpr()) + ", " + flags(a) + ".");
        if (a.deprecated()) {
            doc.add("@deprecated the provider marks this attribute as deprecated");
        }
        return doc;
    }

    /** {@code prefix} is the declaration's lineage before the attribute, null for a block's (unknown here). */
    private static List<String> getterDoc(String tf, Attribute a, String prefix) {
        List<String> doc = new ArrayList<>(attributeDoc(tf, a));
        int at = a.deprecated() ? doc.size() - 1 : doc.size();
        String path = prefix != null
                ? "the lineage {@code " + Javadoc.escape(prefix + tf) + "}"
                : "the block's lineage extended by {@code ." + Javadoc.escape(tf) + "}";
        doc.add(at, "The value carries " + path + ": used in another declaration it is written as that reference.");
        return doc;
    }

    private static String flags(Attribute a) {
        String f = a.required()
                ? "required"
                : a.optional() && a.computed()
                        ? "optional, computed by the provider when not set"
                        : a.optional() ? "optional" : "computed by the provider (read only)";
        return a.sensitive() ? f + ", sensitive" : f;
    }

    private static List<String> blockDoc(String tf, NestedBlock nb) {
        List<String> doc = new ArrayList<>(Javadoc.lines(nb.block().description()));
        if (!doc.isEmpty()) {
            doc.add("<p>");
        }
        String n = Javadoc.escape(tf);
        doc.add(
                switch (nb.nesting()) {
                    case SINGLE ->
                        "Block {@code " + n + "}: at most one" + (nb.minItems() > 0 ? ", required" : "") + ".";
                    case LIST, SET ->
                        "Block {@code " + n + "}: " + (nb.nesting() == NestingMode.LIST ? "a list" : "a set") + " of "
                                + items(nb) + "; each call adds one.";
                    case MAP ->
                        "Block {@code " + n + "}: a map of blocks by label (read only: the SDK cannot "
                                + "write labelled nested blocks yet).";
                });
        if (nb.block().deprecated()) {
            doc.add("@deprecated the provider marks this block as deprecated");
        }
        return doc;
    }

    private static String items(NestedBlock nb) {
        int min = nb.minItems();
        int max = nb.maxItems();
        if (min > 0 && max > 0) {
            return min == max ? "exactly " + min + (min == 1 ? " block" : " blocks") : min + " to " + max + " blocks";
        }
        if (min > 0) {
            return "at least " + min + " block" + (min == 1 ? "" : "s");
        }
        return max > 0 ? "at most " + max + " block" + (max == 1 ? "" : "s") : "any number of blocks";
    }

    private static String quote(String s) {
        return "\"" + s + "\"";
    }
}

package dev.strata.sdk;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The root of every lineage: one Terraform root module built by a Java program. Declarations made
 * through it return objects whose attributes are values that know where they came from; putting
 * such a value into another declaration writes the reference, so Terraform infers the dependency.
 *
 * <pre>{@code
 * Stack stack = new Stack();
 * Resource vpc = stack.resource("aws_vpc", "main").arg("cidr_block", "10.0.0.0/16");
 * stack.resource("aws_subnet", "a").arg("vpc_id", vpc.attr("id"));   // "${aws_vpc.main.id}"
 * stack.writeTo(Path.of("out"));                                       // out/main.tf.json
 * }</pre>
 *
 * Problems (duplicate or invalid names, values of another stack, misplaced {@code count.index}) are
 * reported at synthesis, each at the program line that created the offending value.
 */
public final class Stack {
    /** The file {@link #writeTo} writes. */
    public static final String FILE_NAME = "main.tf.json";

    // Owns the iteration variables of for expressions over literal collections, which refer to no stack.
    static final Stack LOOSE = new Stack(Site.UNKNOWN);

    record RequiredProvider(String source, String version) {}

    record Moved(Address from, Address to, Site site) {}

    record Import(Address to, StringValue id, Provider provider, Site site) {}

    record Removed(Address from, boolean destroy, Site site) {}

    final Site site;
    final List<Resource> resources = new ArrayList<>();
    final List<DataSource> data = new ArrayList<>();
    final List<Variable> variables = new ArrayList<>();
    final List<Local> locals = new ArrayList<>();
    final List<Output> outputs = new ArrayList<>();
    final List<Provider> providers = new ArrayList<>();
    final List<ModuleCall> modules = new ArrayList<>();
    final List<Moved> moved = new ArrayList<>();
    final List<Import> imports = new ArrayList<>();
    final List<Removed> removed = new ArrayList<>();
    final TreeMap<String, RequiredProvider> requiredProviders = new TreeMap<>();
    String requiredVersion;

    public Stack() {
        this(Site.capture());
    }

    private Stack(Site site) {
        this.site = site;
    }

    public Resource resource(String type, String name) {
        Resource r = new Resource(this, type, name, Site.capture());
        resources.add(r);
        return r;
    }

    public DataSource data(String type, String name) {
        DataSource d = new DataSource(this, type, name, Site.capture());
        data.add(d);
        return d;
    }

    public Variable variable(String name) {
        Variable v = new Variable(this, name, Site.capture());
        variables.add(v);
        return v;
    }

    /** Declares {@code local.NAME = value} and returns a value of the same type whose lineage is {@code local.NAME}. */
    public <V extends Value> V local(String name, V value) {
        Objects.requireNonNull(value, "value");
        Site s = Site.capture();
        Local l = new Local(this, name, value, s);
        locals.add(l);
        return Exprs.like(value, new Expr.Ref(Lineage.of(this, l, "local", name), s), s);
    }

    public Output output(String name, Value value) {
        Output o = new Output(this, name, Objects.requireNonNull(value, "value"), Site.capture());
        outputs.add(o);
        return o;
    }

    /** A provider configuration; give it an {@link Provider#alias} for more than one. */
    public Provider provider(String name) {
        Provider p = new Provider(this, name, Site.capture());
        providers.add(p);
        return p;
    }

    /** A call of an existing Terraform module at {@code source} (a local path or a registry address). */
    public ModuleCall module(String name, String source) {
        ModuleCall m = new ModuleCall(this, name, Objects.requireNonNull(source, "source"), Site.capture());
        modules.add(m);
        return m;
    }

    /** {@code path.cwd}: the directory Terraform was started in. */
    public StringValue pathCwd() {
        return named("path", "cwd");
    }

    /** {@code path.module}: the directory of this configuration (the synthesised one, when run by {@code strata}). */
    public StringValue pathModule() {
        return named("path", "module");
    }

    /** {@code path.root}: the directory of the root module. */
    public StringValue pathRoot() {
        return named("path", "root");
    }

    /** {@code terraform.workspace}: the name of the selected workspace. */
    public StringValue workspace() {
        return named("terraform", "workspace");
    }

    private StringValue named(String root, String member) {
        Site s = Site.capture();
        return new StringValue(new Expr.Ref(Lineage.of(this, null, root, member), s), s);
    }

    /** {@code terraform { required_providers { NAME = { source, version } } }}. */
    public Stack requireProvider(String localName, String source, String versionConstraint) {
        requiredProviders.put(localName, new RequiredProvider(source, versionConstraint));
        return this;
    }

    public Stack requiredVersion(String constraint) {
        this.requiredVersion = constraint;
        return this;
    }

    /** A {@code moved} block: the object at {@code from} is now {@code to}. */
    public Stack moved(Address from, Address to) {
        moved.add(new Moved(from, to, Site.capture()));
        return this;
    }

    /** An {@code import} block: bring the existing object {@code id} under management as {@code to}. */
    public Stack importing(Address to, StringValue id) {
        imports.add(new Import(to, id, null, Site.capture()));
        return this;
    }

    public Stack importing(Address to, String id) {
        return importing(to, new StringValue(new Expr.Str(id), Site.capture()));
    }

    /** A {@code removed} block: forget ({@code destroy = false}) or destroy the object at {@code from}. */
    public Stack removed(Address from, boolean destroy) {
        removed.add(new Removed(from, destroy, Site.capture()));
        return this;
    }

    /** The stack in Terraform's JSON syntax, with every problem found. The same program gives the same bytes. */
    public Synthesis synthesize() {
        return new Synthesizer(this).run();
    }

    /**
     * Writes {@value #FILE_NAME} into {@code dir} (created if missing), replacing it atomically, and
     * beside it {@code main.tf.json.sites}, the source map through which Strata names the program line
     * behind an error in the JSON.
     *
     * @return the file written
     * @throws SynthesisException when the program has problems; nothing is written then
     */
    public Path writeTo(Path dir) throws IOException, SynthesisException {
        Synthesis s = synthesize();
        if (s.hasErrors()) {
            throw new SynthesisException(s.problems());
        }
        Files.createDirectories(dir);
        Path target = dir.resolve(FILE_NAME);
        // The map first: a configuration never sits beside the map of another one for long.
        replace(dir.resolve(FILE_NAME + SourceMap.SUFFIX), s.sourceMap());
        replace(target, s.json());
        return target;
    }

    private static void replace(Path target, String text) throws IOException {
        Path tmp = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".tmp");
        try {
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    @Override
    public String toString() {
        return "stack created at " + site;
    }
}

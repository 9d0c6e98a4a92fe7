package program;

import bindings.local.LocalFile;
import bindings.random.RandomPet;
import bindings.random.RandomProvider;
import bindings.terraform.TerraformData;
import bindings.tls.TlsCertRequest;
import bindings.tls.TlsPrivateKey;
import dev.strata.sdk.Fn;
import dev.strata.sdk.Stack;
import java.util.LinkedHashMap;
import java.util.Map;

/** A program written against generated bindings; BuiltinProgramTest compiles and runs it. */
public final class BuiltinStack {
    private BuiltinStack() {}

    /** The stack, and values the test checks the lineage and creation site of. */
    public static Map<String, Object> build() {
        Stack stack = new Stack();
        RandomProvider second = new RandomProvider(stack).alias("second");
        RandomPet pet = new RandomPet(stack, "pet").length(2).prefix("app").keepers(Map.of("env", "dev"));
        pet.resource().provider(second.provider());
        TerraformData echo = new TerraformData(stack, "echo").input(pet.id());
        TlsPrivateKey key = new TlsPrivateKey(stack, "key").algorithm("ED25519");
        TlsCertRequest csr = new TlsCertRequest(stack, "csr")
                .privateKeyPem(key.privateKeyPem())
                .dnsNames("example.com", "www.example.com")
                .subject(s -> s.commonName(pet.id()).organization("Strata"));
        new LocalFile(stack, "note").filename("note.txt").content(Fn.template("pet ", pet.id()));
        stack.output("pet", pet.id());
        stack.output("echo", echo.output());
        stack.output("subject_cn", csr.subject(0).commonName());

        Map<String, Object> out = new LinkedHashMap<>();
        out.put("stack", stack);
        out.put("pet", pet.resource());
        out.put("petId", pet.id());
        out.put("subjectCn", csr.subject(0).commonName());
        out.put("keyPem", key.privateKeyPem());
        return out;
    }

    /** A stack with one mistake: the second pet has the first one's name. */
    public static Stack duplicate() {
        Stack stack = new Stack();
        new RandomPet(stack, "pet");
        new RandomPet(stack, "pet").length(3);
        return stack;
    }
}

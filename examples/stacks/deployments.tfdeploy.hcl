# Three deployments of the same Stack. dev and staging are applied without asking as long as
# their plans destroy nothing; prod always asks.

deployment_auto_approve "no_destroy" {
  check {
    condition = context.plan.changes.remove == 0
    reason    = "The plan destroys ${context.plan.changes.remove} resources."
  }
}

deployment_group "safe" {
  auto_approve_checks = [deployment_auto_approve.no_destroy]
}

deployment "dev" {
  inputs = {
    environment = "dev"
    regions     = ["eu-west-1"]
  }
  deployment_group = deployment_group.safe
}

deployment "staging" {
  inputs = {
    environment = "staging"
    regions     = ["eu-west-1", "us-east-1"]
  }
  deployment_group = deployment_group.safe
}

deployment "prod" {
  inputs = {
    environment   = "prod"
    regions       = ["eu-west-1", "us-east-1", "ap-south-1"]
    app_instances = 2
  }
}

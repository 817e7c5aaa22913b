#!/usr/bin/env python3
"""The deploy recipes in Scripts/deploy/, parsed as the CI services parse them (YAML, PyYAML).

Checks what publishing needs, recipe by recipe:
  - GitHub Pages: the `pages: write` and `id-token: write` permissions, a build job that builds
    storysite (cached `.build`) and the site and uploads it with actions/upload-pages-artifact, and a
    deploy job after it with actions/deploy-pages in the github-pages environment;
  - GitLab Pages: a `pages` job on the default branch whose site lands in the `public` artifact;
  - Netlify and Cloudflare Pages: the site built on GitHub Actions and uploaded by a deploy job
    that downloads the same artifact, with the service's credentials from secrets.
The README shows the GitHub Pages recipe as it is in its file. Every recipe's `${{ steps.<id>.outputs... }}` names a step of its job, and every variable and secret
it reads is named in its opening comment, which tells the user to set it.
Prints `deploy: N passed, M failed` and exits non-zero on any failure.

Usage: deploy_recipes_test.py
"""
import re
import sys
from pathlib import Path

import yaml

REPOSITORY = Path(__file__).resolve().parents[2]
RECIPES = REPOSITORY / "Scripts/deploy"


def load(name):
    text = (RECIPES / name).read_text()
    return text, yaml.safe_load(text)


def steps(job):
    return job.get("steps", [])


def uses(job, action):
    """The job's steps that use `action` (any version)."""
    return [step for step in steps(job) if str(step.get("uses", "")).split("@")[0] == action]


def runs(job):
    return "\n".join(str(step.get("run", "")) for step in steps(job))


def triggers(workflow):
    # YAML 1.1 reads the key `on` as true.
    return workflow.get("on", workflow.get(True))


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def opening_comment(text):
    return "\n".join(line for line in text.splitlines() if line.startswith("#"))


def check_common(text, workflow_jobs):
    """Step outputs refer to steps of the job; every vars.X and secrets.X is in the opening comment."""
    for name, job in workflow_jobs.items():
        ids = {step.get("id") for step in steps(job)}
        for reference in re.findall(r"steps\.([A-Za-z0-9_-]+)\.outputs", yaml.safe_dump(job)):
            expect(reference in ids, f"job {name} reads steps.{reference}, which it has no step of")
    comment = opening_comment(text)
    for kind, name in re.findall(r"\b(vars|secrets)\.([A-Z0-9_]+)", text):
        expect(name in comment, f"{kind}.{name} is used but the opening comment does not say to set it")
    for name in re.findall(r"\$([A-Z][A-Z0-9_]+)", text):
        if not name.startswith(("CI_", "GITHUB_")) and name != "STORYSITE_REF":
            expect(name in comment, f"${name} is used but the opening comment does not say to set it")


def check_builds_storysite(job):
    """The job builds storysite statically from its checked-out source, with `.build` cached."""
    checkout = [step for step in uses(job, "actions/checkout") if step.get("with", {}).get("path") == ".storysite"]
    expect(checkout, "storysite's source is not checked out into .storysite")
    expect("vars.STORYSITE_REPOSITORY" in checkout[0]["with"]["repository"], "the storysite repository is not a variable")
    cache = uses(job, "actions/cache")
    expect(cache and cache[0]["with"]["path"] == ".storysite/.build", "storysite's .build is not cached")
    expect("steps.storysite.outputs.commit" in cache[0]["with"]["key"], "the cache key is not storysite's commit")
    expect("--static-swift-stdlib" in runs(job) and "--product storysite" in runs(job), "storysite is not built statically")
    expect(".storysite/.build/release/storysite build --strict" in runs(job), "the site is not built (with --strict)")
    expect(str(job.get("container", "")).startswith("swift:"), "the build job does not run in a Swift image")


def check_github_pages():
    text, workflow = load("github-pages.yml")
    jobs = workflow["jobs"]
    check_common(text, jobs)
    expect("main" in triggers(workflow)["push"]["branches"], "the workflow does not run on pushes to main")
    permissions = workflow["permissions"]
    expect(permissions.get("pages") == "write", "no pages: write permission")
    expect(permissions.get("id-token") == "write", "no id-token: write permission")
    build, deploy = jobs["build"], jobs["deploy"]
    check_builds_storysite(build)
    configure = uses(build, "actions/configure-pages")
    expect(configure and configure[0].get("id") == "pages", "no actions/configure-pages step with id pages")
    expect('--base-url "${{ steps.pages.outputs.base_url }}/"' in runs(build), "the base URL is not the Pages URL")
    upload = uses(build, "actions/upload-pages-artifact")
    expect(upload and upload[0]["with"]["path"] == "Output", "the built Output/ is not uploaded as the Pages artifact")
    expect(deploy.get("needs") in ("build", ["build"]), "deploy does not wait for build")
    expect(deploy["environment"]["name"] == "github-pages", "deploy is not in the github-pages environment")
    deployment = uses(deploy, "actions/deploy-pages")
    expect(deployment and deployment[0].get("id") == "deployment", "no actions/deploy-pages step with id deployment")
    expect("steps.deployment.outputs.page_url" in deploy["environment"]["url"], "the environment does not link the page")
    readme = (REPOSITORY / "README.md").read_text()
    expect("```yaml\n" + text + "```\n" in readme, "the README's GitHub Pages workflow is not Scripts/deploy/github-pages.yml")


def check_gitlab_pages():
    text, pipeline = load("gitlab-pages.yml")
    check_common(text, {})
    job = pipeline["pages"]
    expect(job["image"].startswith("swift:"), "the pages job does not run in a Swift image")
    expect(any("$CI_DEFAULT_BRANCH" in rule["if"] for rule in job["rules"]), "the pages job does not run on the default branch")
    script = "\n".join(job["script"])
    expect('"$STORYSITE_REPOSITORY"' in script, "storysite is not fetched from $STORYSITE_REPOSITORY")
    expect("--static-swift-stdlib" in script, "storysite is not built statically")
    expect('--base-url "$CI_PAGES_URL/" --output public' in script, "the site is not built into public/ for the Pages URL")
    expect(job["artifacts"]["paths"] == ["public"], "public/ is not the job's artifact")
    expect(".storysite/.build" in job["cache"]["paths"], "storysite's .build is not cached")


def check_uploaded(name, deploy_check):
    text, workflow = load(name)
    jobs = workflow["jobs"]
    check_common(text, jobs)
    expect("main" in triggers(workflow)["push"]["branches"], "the workflow does not run on pushes to main")
    build, deploy = jobs["build"], jobs["deploy"]
    check_builds_storysite(build)
    upload = uses(build, "actions/upload-artifact")
    expect(upload and upload[0]["with"]["path"] == "Output", "Output/ is not uploaded")
    expect(upload[0]["with"].get("include-hidden-files") is True, "dotfiles (.well-known/) would be left out of the artifact")
    expect(deploy.get("needs") in ("build", ["build"]), "deploy does not wait for build")
    expect("container" not in deploy, "the deploy job needs the runner's own Node.js, not the Swift image")
    download = uses(deploy, "actions/download-artifact")
    expect(download and download[0]["with"]["name"] == upload[0]["with"]["name"], "deploy does not download the built site")
    deploy_check(deploy, download[0]["with"]["path"])


def check_netlify():
    def deploy_check(deploy, folder):
        command = runs(deploy)
        expect(f"netlify-cli deploy --prod --dir {folder}" in command, "the downloaded site is not deployed to production")
        env = next(step for step in steps(deploy) if "netlify-cli" in str(step.get("run", "")))["env"]
        for name in ["NETLIFY_AUTH_TOKEN", "NETLIFY_SITE_ID"]:
            expect(env.get(name) == "${{ secrets.%s }}" % name, f"{name} does not come from secrets")
    check_uploaded("netlify.yml", deploy_check)


def check_cloudflare_pages():
    def deploy_check(deploy, folder):
        wrangler = uses(deploy, "cloudflare/wrangler-action")
        expect(wrangler, "no cloudflare/wrangler-action step")
        settings = wrangler[0]["with"]
        expect(settings["command"].startswith(f"pages deploy {folder} --project-name="), "the downloaded site is not deployed")
        expect(settings["apiToken"] == "${{ secrets.CLOUDFLARE_API_TOKEN }}", "the API token does not come from secrets")
        expect(settings["accountId"] == "${{ secrets.CLOUDFLARE_ACCOUNT_ID }}", "the account id does not come from secrets")
    check_uploaded("cloudflare-pages.yml", deploy_check)


def main():
    results = []
    for name, test in [
        ("GitHub Pages: permissions, build with cached .build, upload-pages-artifact, deploy-pages", check_github_pages),
        ("GitLab Pages: pages job on the default branch publishing public/", check_gitlab_pages),
        ("Netlify: built on GitHub Actions, the artifact deployed with the Netlify CLI", check_netlify),
        ("Cloudflare Pages: built on GitHub Actions, the artifact deployed with wrangler", check_cloudflare_pages),
    ]:
        try:
            test()
            results.append(True)
            print(f"ok   {name}")
        except (AssertionError, KeyError, TypeError, yaml.YAMLError) as error:
            results.append(False)
            print(f"FAIL {name}: {type(error).__name__}: {error}")
    print(f"deploy: {results.count(True)} passed, {results.count(False)} failed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())

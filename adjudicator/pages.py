from flask import Blueprint
def make_pages_blueprint():
    return Blueprint("pages", __name__)
